package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.util.Map;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.spring.JobQueueCustomizer;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.postgres.PostgresDialect;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

class JobQueueAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JobQueueAutoConfiguration.class,
				JobQueueTelemetryAutoConfiguration.class, JobQueueMetricsAutoConfiguration.class,
				JobQueueHealthAutoConfiguration.class))
		.withPropertyValues("jobqueue.initialize-schema=never");

	@Test
	void withoutADataSourceThereIsNoQueue() {
		runner.run(context -> assertThat(context).hasNotFailed()
			.doesNotHaveBean(JobStore.class)
			.doesNotHaveBean(JobQueue.class)
			.doesNotHaveBean(JobRuntime.class)
			.doesNotHaveBean(JobQueueProperties.class));
	}

	@Test
	void withADataSourceTheQueueAndItsStartedWorkersAreThere() {
		runner.withUserConfiguration(StubStoreConfiguration.class).run(context -> {
			assertThat(context).hasSingleBean(JobQueue.class)
				.hasSingleBean(HandlerRegistry.class)
				.hasSingleBean(JobQueueSchemaInitializer.class)
				.hasSingleBean(JobHandlerMethodProcessor.class)
				.hasSingleBean(JobRuntimeLifecycle.class);
			assertThat(context.getBean(JobRuntime.class).isRunning()).isTrue();
		});
	}

	@Test
	void externalKindsAreAcceptedAtEnqueueBesideTheKindsOfHandlers() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.withPropertyValues("jobqueue.external-kinds=render-invoice,send-sms")
			.run(context -> assertThat(context.getBean(HandlerRegistry.class).acceptedKinds())
				.containsExactly("render-invoice", "send-sms"));
	}

	@Test
	void customizersChangeTheRuntimeSettingsAfterThePropertiesFilledThem() {
		runner.withUserConfiguration(StubStoreConfiguration.class, CustomizerConfiguration.class)
			.withPropertyValues("jobqueue.queues.mail.concurrency=2", "jobqueue.lease-duration=60s")
			.run(context -> {
				RuntimeSettings settings = context.getBean(RuntimeSettings.class);
				assertThat(settings.queues()).isEqualTo(Map.of("default", 8, "mail", 4));
				assertThat(settings.lease()).isEqualTo(Duration.ofSeconds(60));
				assertThat(settings.retryPolicy().maxAttempts()).isEqualTo(3);
			});
	}

	@Test
	void aRuntimeSettingsBeanOfTheApplicationReplacesThePropertiesAndTheCustomizers() {
		runner.withUserConfiguration(StubStoreConfiguration.class, CustomizerConfiguration.class)
			.withBean(RuntimeSettings.class, () -> RuntimeSettings.builder().queue("own", 1).build())
			.run(context -> assertThat(context.getBean(RuntimeSettings.class).queues())
				.isEqualTo(Map.of("default", 8, "own", 1)));
	}

	@Test
	void aCustomizerThatBreaksTheSettingsFailsStartupNamingTheSetting() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.withBean(JobQueueCustomizer.class, () -> settings -> settings.lease(Duration.ofSeconds(5)))
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("heartbeat-interval (PT10S) must be shorter than lease (PT5S)"));
	}

	@Test
	void theQueuePublishesNoFlywayBeanThatWouldTurnOffTheApplicationsOwnMigrations() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.run(context -> assertThat(context).doesNotHaveBean(Flyway.class));
	}

	@Test
	void aDialectNamedInConfigurationChoosesTheStoreWithoutAskingTheDatabase() {
		// The schema check would ask the database for the tables' version: this one answers for it.
		runner.withUserConfiguration(StubDataSourceConfiguration.class)
			.withBean(JobQueueSchemaInitializer.class, () -> new JobQueueSchemaInitializer(mock(DataSource.class),
					StubStoreConfiguration.stubStore(), DatabaseInitializationMode.NEVER))
			.withPropertyValues("jobqueue.dialect=postgresql", "jobqueue.worker.enabled=false")
			.run(context -> {
				JobStore store = context.getBean(JobStore.class);
				assertThat(store.vendor()).isEqualTo(PostgresDialect.VENDOR);
				assertThat(store.claims().getClass().getPackageName()).isEqualTo(PostgresDialect.class.getPackageName());
			});
	}

	@Test
	void anUnsupportedDialectFailsTheStartupNamingTheProperty() {
		runner.withUserConfiguration(StubDataSourceConfiguration.class)
			.withPropertyValues("jobqueue.dialect=oracle")
			.run(context -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("jobqueue.dialect must be one of [postgresql, sqlite, mysql]")
				.hasMessageContaining("was 'oracle'"));
	}

	@Test
	void closingTheContextStopsTheWorkers() {
		runner.withUserConfiguration(StubStoreConfiguration.class).run(context -> {
			JobRuntime runtime = context.getBean(JobRuntime.class);
			context.close();
			assertThat(runtime.isRunning()).isFalse();
		});
	}

	@Test
	void theApplicationsOwnJobQueueWins() {
		runner.withUserConfiguration(StubStoreConfiguration.class, OwnQueueConfiguration.class)
			.run(context -> assertThat(context.getBean(JobQueue.class)).isSameAs(OwnQueueConfiguration.QUEUE));
	}

	@Test
	void theApplicationsOwnRuntimeIsTheOneStarted() {
		runner.withUserConfiguration(StubStoreConfiguration.class, OwnRuntimeConfiguration.class).run(context -> {
			assertThat(context).hasSingleBean(JobRuntime.class);
			assertThat(context.getBean(JobRuntime.class).isRunning()).isTrue();
		});
	}

	@Test
	void disabledThereIsNoQueueAtAll() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.withPropertyValues("jobqueue.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(JobQueue.class)
				.doesNotHaveBean(JobRuntime.class)
				.doesNotHaveBean(HandlerRegistry.class)
				.doesNotHaveBean(MicrometerJobListener.class)
				.doesNotHaveBean(QueueHealthSampler.class)
				.doesNotHaveBean(JobQueueHealthIndicator.class));
	}

	@Test
	void anEnqueueOnlyNodeHasTheQueueButNoWorkers() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.withPropertyValues("jobqueue.worker.enabled=false")
			.run(context -> assertThat(context).hasSingleBean(JobQueue.class)
				.hasSingleBean(HandlerRegistry.class)
				.doesNotHaveBean(JobRuntime.class)
				.doesNotHaveBean(JobRuntimeLifecycle.class));
	}

	@Test
	void withAMeterRegistryTheQueueIsMetered() {
		runner.withUserConfiguration(StubStoreConfiguration.class, MeterRegistryConfiguration.class)
			.run(context -> assertThat(context).hasSingleBean(MicrometerJobListener.class)
				.hasSingleBean(JobCountGauges.class)
				.hasSingleBean(QueueHealthSampler.class)
				.hasSingleBean(QueueHealthGauges.class));
	}

	@Test
	void theReapedCounterExistsFromStartupAtZero() {
		runner.withUserConfiguration(StubStoreConfiguration.class, MeterRegistryConfiguration.class)
			.run(context -> assertThat(context.getBean(MeterRegistry.class).get("jobqueue.jobs.reaped").counter().count())
				.isZero());
	}

	@Test
	void withoutMicrometerTheMetricsBackOff() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run(context -> assertThat(context).hasNotFailed()
				.hasSingleBean(JobQueue.class)
				.doesNotHaveBean(MicrometerJobListener.class)
				.doesNotHaveBean(JobCountGauges.class)
				.doesNotHaveBean(QueueHealthGauges.class));
	}

	@Test
	void withoutAMeterRegistryTheMetricsBackOff() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.run(context -> assertThat(context).doesNotHaveBean(MicrometerJobListener.class));
	}

	@Test
	void withoutSpringBootHealthTheHealthIndicatorBacksOff() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run(context -> assertThat(context).hasNotFailed()
				.hasSingleBean(JobQueue.class)
				.doesNotHaveBean(JobQueueHealthIndicator.class));
	}

	@Test
	void theHealthIndicatorCanBeTurnedOff() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.withPropertyValues("management.health.jobqueue.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(JobQueueHealthIndicator.class));
	}

	@Test
	void theQueueIsUpWhileTheDatabaseAnswersAndTheWorkersRun() {
		runner.withUserConfiguration(StubStoreConfiguration.class).run(context -> {
			HealthIndicator indicator = context.getBean("jobqueueHealthIndicator", HealthIndicator.class);
			Health health = indicator.health(true);
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("database", "postgresql")
				.containsEntry("worker", context.getBean(JobRuntime.class).owner());
			context.getBean(JobRuntime.class).stop();
			assertThat(indicator.health(true).getStatus()).isEqualTo(Status.DOWN);
		});
	}

	@Test
	void anEnqueueOnlyNodeIsUpWithoutWorkers() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.withPropertyValues("jobqueue.worker.enabled=false")
			.run(context -> {
				Health health = context.getBean(JobQueueHealthIndicator.class).health(true);
				assertThat(health.getStatus()).isEqualTo(Status.UP);
				assertThat(health.getDetails()).containsEntry("worker", "disabled");
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class StubDataSourceConfiguration {

		@Bean
		DataSource dataSource() {
			return mock(DataSource.class);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnQueueConfiguration {

		static final JobQueue QUEUE = mock(JobQueue.class);

		@Bean
		JobQueue ownJobQueue() {
			return QUEUE;
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnRuntimeConfiguration {

		@Bean
		JobRuntime ownJobRuntime(JobStore store) {
			return new JobRuntime(store, new HandlerRegistry(), JsonMapper.builder().build(),
					RuntimeSettings.defaults(),
					JobListener.NONE, TransactionOperations.withoutTransaction());
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class MeterRegistryConfiguration {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomizerConfiguration {

		@Bean
		@Order(1)
		JobQueueCustomizer moreMailers() {
			return settings -> settings.queue("mail", 4);
		}

		@Bean
		@Order(2)
		JobQueueCustomizer fewerAttempts() {
			return settings -> settings.retryPolicy(RetryPolicy.DEFAULT.withMaxAttempts(3));
		}
	}
}
