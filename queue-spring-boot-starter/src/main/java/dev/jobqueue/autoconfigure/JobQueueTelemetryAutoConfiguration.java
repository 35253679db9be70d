package dev.jobqueue.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import dev.jobqueue.store.JobStore;

/**
 * The queue-health sampler, whose values the queue-health gauges ({@link JobQueueMetricsAutoConfiguration}) and the
 * health indicator's thresholds ({@link JobQueueHealthAutoConfiguration}) read, with its {@code jobqueue.health.*}
 * properties.
 */
@AutoConfiguration(after = JobQueueAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "jobqueue.enabled", matchIfMissing = true)
@ConditionalOnBean(JobStore.class)
@EnableConfigurationProperties(JobQueueHealthProperties.class)
public final class JobQueueTelemetryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	QueueHealthSampler jobQueueHealthSampler(JobStore store, JobQueueProperties properties,
			JobQueueHealthProperties health) {
		return new QueueHealthSampler(store, properties.getQueues().keySet(), health.getSampleInterval());
	}
}
