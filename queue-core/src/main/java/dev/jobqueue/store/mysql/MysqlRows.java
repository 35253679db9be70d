package dev.jobqueue.store.mysql;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ChangedJob;
import dev.jobqueue.store.ErrorHistory;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.mysql.support.MysqlValues;

/**
 * Rows of {@code jobqueue_job} on MySQL as Java values. Times are {@code DATETIME(6)} in UTC, read and bound as
 * {@link LocalDateTime} (bound through {@link MysqlValues}), which neither driver shifts by the session's or the JVM's
 * time zone.
 */
final class MysqlRows {

	/** The columns {@link #job} reads, in every statement that returns whole jobs. */
	static final String JOB_COLUMNS = """
			id, queue, kind, payload, payload_version, state, priority, run_at, attempt, max_attempts, lease_owner,
			lease_expires_at, unique_key, last_error, result, created_at, started_at, finished_at, errors,
			concurrency_key""";

	private MysqlRows() {
	}

	static Instant instant(ResultSet rs, String column) throws SQLException {
		LocalDateTime time = rs.getObject(column, LocalDateTime.class);
		return time == null ? null : time.toInstant(ZoneOffset.UTC);
	}

	static Lease lease(ResultSet rs, int row) throws SQLException {
		return new Lease(rs.getLong("id"), rs.getLong("lease_token"));
	}

	static ChangedJob changed(ResultSet rs, int row) throws SQLException {
		return new ChangedJob(rs.getLong("id"), rs.getString("queue"), rs.getString("concurrency_key"));
	}

	static Job job(ResultSet rs, int row) throws SQLException {
		return new Job(rs.getLong("id"), rs.getString("queue"), rs.getString("kind"), rs.getString("payload"),
				rs.getInt("payload_version"), JobState.valueOf(rs.getString("state")), rs.getInt("priority"),
				instant(rs, "run_at"), rs.getInt("attempt"), rs.getInt("max_attempts"), rs.getString("lease_owner"),
				instant(rs, "lease_expires_at"), rs.getString("unique_key"), rs.getString("last_error"),
				rs.getString("result"), instant(rs, "created_at"), instant(rs, "started_at"),
				instant(rs, "finished_at"), ErrorHistory.parse(rs.getString("errors")), rs.getString("concurrency_key"));
	}
}
