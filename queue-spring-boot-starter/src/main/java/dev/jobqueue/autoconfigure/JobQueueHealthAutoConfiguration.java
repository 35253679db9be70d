package dev.jobqueue.autoconfigure;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.spring.JobQueueDataSource;
import dev.jobqueue.store.JobStore;

/**
 * The {@code jobqueue} health indicator, when Spring Boot's health support is present: the database, the workers
 * and the {@code jobqueue.health.*} thresholds.
 */
@AutoConfiguration(after = { JobQueueAutoConfiguration.class, JobQueueTelemetryAutoConfiguration.class })
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBooleanProperty(name = "jobqueue.enabled", matchIfMissing = true)
@ConditionalOnBean({ JobStore.class, QueueHealthSampler.class })
@ConditionalOnEnabledHealthIndicator("jobqueue")
public final class JobQueueHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "jobqueueHealthIndicator")
	JobQueueHealthIndicator jobqueueHealthIndicator(JobStore store, ObjectProvider<JobRuntime> runtime,
			@JobQueueDataSource ObjectProvider<DataSource> queueDataSource, ObjectProvider<DataSource> dataSource,
			QueueHealthSampler sampler, JobQueueHealthProperties health) {
		return new JobQueueHealthIndicator(QueueDataSource.resolve(queueDataSource, dataSource), store.vendor(),
				runtime, new QueueHealthThresholds(sampler, health));
	}
}
