package dev.jobqueue.autoconfigure;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.runtime.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.postgres.PostgresJobStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

class JobQueueAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JobQueueAutoConfiguration.class,
				JobQueueMetricsAutoConfiguration.class, JobQueueHealthAutoConfiguration.class))
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
	void theQueuePublishesNoFlywayBeanThatWouldTurnOffTheApplicationsOwnMigrations() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.run(context -> assertThat(context).doesNotHaveBean(Flyway.class));
	}

	@Test
	void aDialectNamedInConfigurationChoosesTheStoreWithoutAskingTheDatabase() {
		runner.withUserConfiguration(StubDataSourceConfiguration.class)
			.withPropertyValues("jobqueue.dialect=postgresql", "jobqueue.worker.enabled=false")
			.run(context -> assertThat(context.getBean(JobStore.class)).isInstanceOf(PostgresJobStore.class));
	}

	@Test
	void anUnsupportedDialectFailsTheStartupNamingTheProperty() {
		runner.withUserConfiguration(StubDataSourceConfiguration.class)
			.withPropertyValues("jobqueue.dialect=oracle")
			.run(context -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("jobqueue.dialect must be one of [postgresql")
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
				.hasSingleBean(JobCountGauges.class));
	}

	@Test
	void withoutMicrometerTheMetricsBackOff() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run(context -> assertThat(context).hasNotFailed()
				.hasSingleBean(JobQueue.class)
				.doesNotHaveBean(JobListener.class));
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
			return new JobRuntime(store, new HandlerRegistry(), JsonMapper.builder().build(), RuntimeSettings.defaults(),
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
}
