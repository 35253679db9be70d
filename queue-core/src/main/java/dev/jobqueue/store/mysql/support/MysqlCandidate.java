package dev.jobqueue.store.mysql.support;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Lease;

/** A due row as a claim's read found it, before the claim's update, with the database's clock at that read. */
public record MysqlCandidate(long id, String queue, String kind, String payload, int payloadVersion, int attempt,
		int maxAttempts, int priority, long leaseToken, LocalDateTime runAt, int snoozes, String concurrencyKey,
		String traceContext, boolean hasDependents, LocalDateTime claimedAt) {

	public static MysqlCandidate read(ResultSet rs, int row) throws SQLException {
		return new MysqlCandidate(rs.getLong("id"), rs.getString("queue"), rs.getString("kind"),
				rs.getString("payload"), rs.getInt("payload_version"), rs.getInt("attempt"), rs.getInt("max_attempts"),
				rs.getInt("priority"), rs.getLong("lease_token"), rs.getObject("run_at", LocalDateTime.class),
				rs.getInt("snoozes"), rs.getString("concurrency_key"), rs.getString("trace_context"),
				rs.getBoolean("has_dependents"), rs.getObject("claimed_at", LocalDateTime.class));
	}

	/** The job as the claim's update left it: one attempt and one lease token on, started {@code now}. */
	public ClaimedJob claimed(LocalDateTime now) {
		return new ClaimedJob(id, queue, kind, payload, payloadVersion, attempt + 1, maxAttempts, priority,
				new Lease(id, leaseToken + 1), runAt.toInstant(ZoneOffset.UTC), now.toInstant(ZoneOffset.UTC), snoozes,
				concurrencyKey, traceContext, hasDependents);
	}
}
