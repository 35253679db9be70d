package dev.jobqueue.store;

/**
 * A job a bulk operation changed, with what the runtime needs to follow the change up: the queue whose
 * pollers to wake, and the concurrency key whose blocked jobs may now get a slot.
 *
 * @param concurrencyKey null for a job without one
 */
public record ChangedJob(long id, String queue, String concurrencyKey) {
}
