package dev.jobqueue.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.jobqueue.store.JobStore;

/** Micrometer meters of the queue, when the application has a {@link MeterRegistry}. */
@AutoConfiguration(after = { JobQueueAutoConfiguration.class, JobQueueTelemetryAutoConfiguration.class },
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "jobqueue.enabled", matchIfMissing = true)
@ConditionalOnBean({ JobStore.class, MeterRegistry.class })
public final class JobQueueMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	MicrometerJobListener jobQueueMetricsListener(MeterRegistry registry) {
		return new MicrometerJobListener(registry);
	}

	@Bean
	@ConditionalOnMissingBean
	JobCountGauges jobQueueCountGauges(JobStore store, JobQueueProperties properties) {
		return new JobCountGauges(store, properties.getQueues().keySet(), System::nanoTime);
	}

	/** Only PostgreSQL keeps dead row versions, and with them the table health its gauges show. */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(QueueHealthSampler.class)
	QueueHealthGauges jobQueueHealthGauges(QueueHealthSampler sampler, JobStore store) {
		return new QueueHealthGauges(sampler, "postgresql".equals(store.vendor()));
	}
}
