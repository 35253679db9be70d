package dev.jobqueue;

import java.time.Instant;

/**
 * A snapshot of one job as {@link JobQueue#find(long)} reads it.
 *
 * @param payload the payload as stored, in JSON
 * @param result the handler's return value in JSON, or {@code null}
 * @param lastError message and stack trace of the latest failure, or {@code null}
 * @param runAt when the job is (or was) due
 */
public record Job(long id, String queue, String kind, String payload, JobState state, int priority,
		Instant runAt, int attempt, int maxAttempts, String leaseOwner, Instant leaseExpiresAt,
		String uniqueKey, String lastError, String result, Instant createdAt, Instant startedAt,
		Instant finishedAt) {
}
