package dev.jobqueue.autoconfigure;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.jobqueue.JobQueue;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.JobStore;

/** The {@code jobqueue} Actuator endpoint, when Actuator is present and the endpoint is exposed. */
@AutoConfiguration(after = JobQueueAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBooleanProperty(name = "jobqueue.enabled", matchIfMissing = true)
@ConditionalOnBean({ JobStore.class, JobQueue.class })
@ConditionalOnAvailableEndpoint(JobQueueEndpoint.class)
public final class JobQueueEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	JobQueueEndpoint jobQueueEndpoint(JobStore store, JobQueue queue, ObjectProvider<JobRuntime> runtime) {
		return new JobQueueEndpoint(store, queue, runtime, Clock.systemUTC());
	}
}
