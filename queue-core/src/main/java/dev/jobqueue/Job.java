package dev.jobqueue;

import java.time.Instant;
import java.util.List;

/**
 * A snapshot of one job as {@link JobQueue#find(long)} reads it.
 *
 * @param payload the payload as stored, in JSON
 * @param payloadVersion the version of the payload's shape it was enqueued with
 * @param result the handler's return value in JSON, or {@code null}
 * @param lastError message and stack trace of the latest failure, or {@code null}; cleared when the job
 *        succeeds (earlier failures stay in {@code errors})
 * @param runAt when the job is (or was) due
 * @param uniqueKey the unique key as stored and compared ({@link Unique}): the key given, or {@code payload:} and a
 *        hash of payload fields, followed by {@code @} and the start of its period with one; or {@code null}
 * @param errors the job's failures, oldest first: the latest {@link AttemptError#MAX_ENTRIES}
 * @param concurrencyKey the concurrency key it was enqueued with ({@code kind:<kind>} for a kind with a
 *        cluster-wide limit), or {@code null}
 */
public record Job(long id, String queue, String kind, String payload, int payloadVersion, JobState state,
		int priority, Instant runAt, int attempt, int maxAttempts, String leaseOwner, Instant leaseExpiresAt,
		String uniqueKey, String lastError, String result, Instant createdAt, Instant startedAt,
		Instant finishedAt, List<AttemptError> errors, String concurrencyKey) {

	public Job {
		errors = List.copyOf(errors);
	}

	/**
	 * One failed attempt: a handler's error, or a lease that expired because its worker stopped.
	 *
	 * @param attempt the attempt that failed
	 * @param at when the failure was written, on the database's clock
	 * @param worker the lease owner that ran the attempt
	 * @param message the error, cut to {@link #MAX_MESSAGE_LENGTH} characters ({@link Job#lastError()}
	 * keeps the latest one in full)
	 */
	public record AttemptError(int attempt, Instant at, String worker, String message) {

		/** How many failures a job keeps; older ones are dropped as new ones come. */
		public static final int MAX_ENTRIES = 10;

		/** How much of each failure's text is kept: the message and the top of the stack trace. */
		public static final int MAX_MESSAGE_LENGTH = 2_000;
	}
}
