package dev.jobqueue.autoconfigure;

import io.micrometer.observation.ObservationRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.jobqueue.JobTracing;

/**
 * Spans of enqueues and executions, in the trace of the request that enqueued, when the application has an
 * {@link ObservationRegistry} (Actuator with micrometer-tracing and a bridge, Brave or OpenTelemetry).
 */
@AutoConfiguration(
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "jobqueue.enabled", matchIfMissing = true)
@ConditionalOnBean(ObservationRegistry.class)
public final class JobQueueTracingAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	JobTracing jobQueueTracing(ObservationRegistry registry) {
		return new ObservationJobTracing(registry);
	}
}
