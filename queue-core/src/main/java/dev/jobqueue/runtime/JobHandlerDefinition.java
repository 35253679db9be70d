package dev.jobqueue.runtime;

import java.lang.reflect.Type;

import dev.jobqueue.RetryPolicy;

/**
 * A registered handler: the kind it serves, where its jobs go by default, how its payload is bound and
 * how failures are retried.
 *
 * @param payloadType the type the JSON payload is bound to (generic types welcome)
 * @param retryPolicy the handler's own policy, or {@code null} for the runtime's default
 * @param transactional whether the handler's database work and the job's completion commit in one
 * transaction on the queue's {@code DataSource}
 * @param description who declared it (bean and method), for error messages
 */
public record JobHandlerDefinition(String kind, String queue, Type payloadType, RetryPolicy retryPolicy,
		boolean transactional, JobHandlerFunction<Object> function, String description) {

	public JobHandlerDefinition {
		QueueNames.requireValid(queue, "queue of " + description);
	}
}
