package dev.jobqueue.store.postgres;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ErrorHistory;
import dev.jobqueue.store.Lease;

/** Reading and binding the values PostgreSQL statements exchange: timestamps and whole jobs. */
final class PostgresRows {

	private PostgresRows() {
	}

	/**
	 * An update that returns the queues of the jobs it made ready, wrapped, when the store notifies, so that the
	 * same statement tells those queues' listeners.
	 */
	static String notifyingReady(String updateReturningQueue, boolean notify) {
		return notify ? "WITH ready AS (" + updateReturningQueue
				+ ") SELECT pg_notify('jobqueue_ready', queue) IS NULL FROM ready" : updateReturningQueue;
	}

	static OffsetDateTime timestamp(Instant instant) {
		return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
	}

	static Instant instant(ResultSet rs, String column) throws SQLException {
		OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
		return value == null ? null : value.toInstant();
	}

	static Instant instant(ResultSet rs, int column) throws SQLException {
		OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
		return value == null ? null : value.toInstant();
	}

	static Job job(ResultSet rs, int row) throws SQLException {
		return new Job(rs.getLong("id"), rs.getString("queue"), rs.getString("kind"), rs.getString("payload"),
				rs.getInt("payload_version"), JobState.valueOf(rs.getString("state")), rs.getInt("priority"),
				instant(rs, "run_at"), rs.getInt("attempt"), rs.getInt("max_attempts"), rs.getString("lease_owner"),
				instant(rs, "lease_expires_at"), rs.getString("unique_key"), rs.getString("last_error"),
				rs.getString("result"), instant(rs, "created_at"), instant(rs, "started_at"),
				instant(rs, "finished_at"), ErrorHistory.parse(rs.getString("errors")), rs.getString("concurrency_key"));
	}

	/**
	 * The batch's entries in job id order, one per job: should a job appear twice, under two leases,
	 * only the newer token can still hold (tokens only grow), so the older entry is left out and
	 * reported lost. The id array is then sorted and free of repeats, which the batch lookup (see the
	 * class comment) needs.
	 */
	static <T> List<T> newestPerJob(Collection<T> entries, Function<T, Lease> leaseOf) {
		Map<Long, T> newest = new TreeMap<>();
		for (T entry : entries) {
			newest.merge(leaseOf.apply(entry).jobId(), entry,
					(a, b) -> leaseOf.apply(a).token() >= leaseOf.apply(b).token() ? a : b);
		}
		return List.copyOf(newest.values());
	}
}
