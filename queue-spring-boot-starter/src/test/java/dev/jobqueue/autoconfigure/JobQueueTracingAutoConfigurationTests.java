package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.observation.ObservationRegistry;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.jobqueue.JobTracing;

/** When the queue traces: with an {@link ObservationRegistry}, unless turned off or replaced. */
class JobQueueTracingAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JobQueueTracingAutoConfiguration.class));

	@Test
	void withAnObservationRegistryTheQueueObservesThroughIt() {
		runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.run(context -> assertThat(context).getBean(JobTracing.class).isInstanceOf(ObservationJobTracing.class));
	}

	@Test
	void withoutAnObservationRegistryNothingIsTraced() {
		runner.run(context -> assertThat(context).doesNotHaveBean(JobTracing.class));
	}

	@Test
	void withTheQueueDisabledNothingIsTraced() {
		runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.withPropertyValues("jobqueue.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(JobTracing.class));
	}

	@Test
	void anApplicationsOwnJobTracingReplacesTheObservations() {
		runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.withBean(JobTracing.class, () -> JobTracing.NONE)
			.run(context -> assertThat(context).getBean(JobTracing.class).isSameAs(JobTracing.NONE));
	}
}
