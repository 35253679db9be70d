package dev.jobqueue.store.postgres;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ErrorHistory;

/** Reading and binding the values PostgreSQL statements exchange: timestamps and whole jobs. */
final class PostgresRows {

	private PostgresRows() {
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
}
