package dev.jobqueue.store.sqlite;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.ErrorHistory;
import dev.jobqueue.store.Lease;
import tools.jackson.databind.json.JsonMapper;

/**
 * Rows of {@code jobqueue_job} on SQLite as Java values, and lists and maps of values as the JSON arrays
 * and objects that stand in for PostgreSQL's array parameters ({@code json_each} turns them back into rows).
 */
final class SqliteRows {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private SqliteRows() {
	}

	/** Times are stored as epoch milliseconds. */
	static Instant instant(ResultSet rs, String column) throws SQLException {
		long millis = rs.getLong(column);
		return rs.wasNull() ? null : Instant.ofEpochMilli(millis);
	}

	static Lease lease(ResultSet rs, int row) throws SQLException {
		return new Lease(rs.getLong("id"), rs.getLong("lease_token"));
	}

	static ClaimedJob claimedJob(ResultSet rs, int row) throws SQLException {
		return new ClaimedJob(rs.getLong("id"), rs.getString("queue"), rs.getString("kind"), rs.getString("payload"),
				rs.getInt("payload_version"), rs.getInt("attempt"), rs.getInt("max_attempts"), rs.getInt("priority"),
				lease(rs, row), instant(rs, "run_at"), instant(rs, "started_at"), rs.getInt("snoozes"),
				rs.getString("concurrency_key"), rs.getString("trace_context"), rs.getInt("has_dependents") == 1);
	}

	static Job job(ResultSet rs, int row) throws SQLException {
		return new Job(rs.getLong("id"), rs.getString("queue"), rs.getString("kind"), rs.getString("payload"),
				rs.getInt("payload_version"), JobState.valueOf(rs.getString("state")), rs.getInt("priority"),
				instant(rs, "run_at"), rs.getInt("attempt"), rs.getInt("max_attempts"), rs.getString("lease_owner"),
				instant(rs, "lease_expires_at"), rs.getString("unique_key"), rs.getString("last_error"),
				rs.getString("result"), instant(rs, "created_at"), instant(rs, "started_at"),
				instant(rs, "finished_at"), ErrorHistory.parse(rs.getString("errors")), rs.getString("concurrency_key"));
	}

	/** {@code {"kind": version, …}}. */
	static String versionsJson(Map<String, Integer> versions) {
		return JSON.writeValueAsString(versions);
	}

	/** {@code [id, …]}. */
	static String idsJson(Collection<Long> ids) {
		return JSON.writeValueAsString(ids);
	}

	/** Epoch milliseconds, as times are stored; null stays null. */
	static Long millis(Instant instant) {
		return instant == null ? null : instant.toEpochMilli();
	}

	/** {@code [[id, token], …]}. */
	static String leasesJson(Collection<Lease> leases) {
		return JSON.writeValueAsString(leases.stream().map(l -> List.of(l.jobId(), l.token())).toList());
	}

	/** {@code [[id, token, result JSON as a string or null], …]}. */
	static String completionsJson(Collection<Completion> completions) {
		return JSON.writeValueAsString(completions.stream()
			.map(c -> Arrays.asList(c.lease().jobId(), c.lease().token(), c.result()))
			.toList());
	}
}
