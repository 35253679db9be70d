package dev.jobqueue.store;

import java.time.Instant;

/**
 * A job this worker has just claimed, with the lease that fences every write it makes about it.
 *
 * @param payloadVersion the version of the payload's shape it was enqueued with
 * @param runAt when the job was due, so that its wait (due → start) can be measured
 * @param startedAt when the claim happened, on the store's clock
 * @param snoozes how many times handlers snoozed the job before this attempt
 * @param concurrencyKey the key whose slot it holds, or {@code null}: once it is finished, the store's
 * {@link PromotionStore#promote} hands the slot on
 * @param traceContext the propagation fields stored at its enqueue ({@link NewJob#traceContext()}), or {@code null}
 * @param hasDependents whether jobs wait for it ({@link NewJob#hasDependents()}): once it is finished, the jobs
 * waiting for it are settled ({@link DependencyStore})
 */
public record ClaimedJob(long id, String queue, String kind, String payload, int payloadVersion, int attempt,
		int maxAttempts, int priority, Lease lease, Instant runAt, Instant startedAt, int snoozes,
		String concurrencyKey, String traceContext, boolean hasDependents) {
}
