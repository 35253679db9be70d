package dev.jobqueue.store;

/**
 * The right to write the outcome of one execution. {@code token} grows by one at every claim of the
 * job, so a write fenced by {@code (id, token)} changes nothing once the job was reclaimed.
 */
public record Lease(long jobId, long token) {
}
