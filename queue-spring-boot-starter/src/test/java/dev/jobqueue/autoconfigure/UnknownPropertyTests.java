package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * A property under {@code jobqueue.} that nothing binds fails the startup, naming it and the nearest property there
 * is; every form Spring Boot binds (kebab-case, camelCase, brackets, indexes, the free keys of maps) starts.
 */
class UnknownPropertyTests {

	private final ApplicationContextRunner runner;

	UnknownPropertyTests() throws IOException {
		Path file = Files.createTempFile(Path.of("target"), "starter-unknown-property-test", ".db");
		runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:sqlite:" + file, "jobqueue.worker.enabled=false");
	}

	@Test
	void aMisspelledQueuesFailsTheStartupNamingTheKeyAndTheNearestProperty() {
		runner.withPropertyValues("jobqueue.queue.pq.concurrency=3").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(JobQueueStartupException.class)
				.hasMessageContaining("jobqueue.queue.pq.concurrency is not a jobqueue property; did you mean "
						+ "jobqueue.queues.pq.concurrency?");
		});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			jobqueue.queues.pq.concurency=3             | jobqueue.queues.pq.concurrency
			jobqueue.schedules.nightly.cronn=@daily     | jobqueue.schedules.nightly.cron
			jobqueue.retry.max-attempt=3                | jobqueue.retry.max-attempts
			jobqueue.health.sample-intervall=5s         | jobqueue.health.sample-interval
			jobqueue.worker.enable=false                | jobqueue.worker.enabled
			jobqueue.console.path.x=/ops                | jobqueue.console.path
			jobqueue.pool-interval=2s                   | jobqueue.poll-interval
			""")
	void anUnknownKeyFailsTheStartupNamingTheNearestProperty(String property, String nearest) {
		String key = property.substring(0, property.indexOf('='));
		runner.withPropertyValues(property).run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining(key + " is not a jobqueue property; did you mean " + nearest + "?");
		});
	}

	@Test
	void everyFormSpringBootBindsStarts() {
		runner.withPropertyValues("jobqueue.retry.max-attempts=3", "jobqueue.retry.initialBackoff=2s",
				"jobqueue.max_error_length=4096", "jobqueue.queues.pq.concurrency=2",
				"jobqueue.queues[mail].initiallyPaused=true", "jobqueue.queues.mail.prefetch=1",
				"jobqueue.concurrency-key-limits.tenant-=4", "jobqueue.concurrency-key-limits[tenant.gold]=8",
				"jobqueue.external-kinds[0]=report", "jobqueue.external-kinds[1]=render",
				"jobqueue.schedules.nightly.kind=report", "jobqueue.schedules.nightly.every=1h",
				"jobqueue.schedules.nightly.misfire-threshold=5m", "jobqueue.health.sample-interval=5s",
				"jobqueue.console.writesEnabled=false", "jobqueue.payload.fail-on-unknown-properties=false")
			.run(context -> {
				assertThat(context).hasNotFailed();
				JobQueueProperties properties = context.getBean(JobQueueProperties.class);
				assertThat(properties.getRetry().getMaxAttempts()).isEqualTo(3);
				assertThat(properties.getMaxErrorLength()).isEqualTo(4096);
				assertThat(properties.getQueues().get("mail").isInitiallyPaused()).isTrue();
				assertThat(properties.getConcurrencyKeyLimits()).containsEntry("tenant.gold", 8);
			});
	}

	@Test
	void aListAsOneValueAndAnEmptyMapStart() {
		runner.withPropertyValues("jobqueue.external-kinds=report,render", "jobqueue.schedules=")
			.run(context -> assertThat(context).hasNotFailed());
	}

	/**
	 * The environment holds variables of other programs too (CI sets {@code JOBQUEUE_TEST_…}): like Spring Boot's
	 * own check of unknown fields, it is not read for unknown keys, and binds as ever.
	 */
	@Test
	void environmentVariablesBindAndAreNotCheckedForUnknownKeys() {
		runner.withInitializer(context -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					Map.of("JOBQUEUE_QUEUES_PQ_CONCURRENCY", "2", "JOBQUEUE_TEST_POSTGRES_URL", "jdbc:postgresql:x"))))
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(JobQueueProperties.class).getQueues().get("pq").getConcurrency()).isEqualTo(2);
			});
	}
}
