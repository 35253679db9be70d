package dev.jobqueue.store.mysql;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import org.springframework.jdbc.core.SqlParameterValue;

import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ChangedJob;
import dev.jobqueue.store.ErrorHistory;
import dev.jobqueue.store.Lease;

/**
 * Rows of {@code jobqueue_job} on MySQL as Java values. Times are {@code DATETIME(6)} in UTC, read and bound as
 * {@link LocalDateTime}, which neither driver shifts by the session's or the JVM's time zone.
 */
final class MysqlRows {

	/** The columns {@link #job} reads, in every statement that returns whole jobs. */
	static final String JOB_COLUMNS = """
			id, queue, kind, payload, payload_version, state, priority, run_at, attempt, max_attempts, lease_owner,
			lease_expires_at, unique_key, last_error, result, created_at, started_at, finished_at, errors,
			concurrency_key""";

	private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");

	private MysqlRows() {
	}

	static Instant instant(ResultSet rs, String column) throws SQLException {
		LocalDateTime time = rs.getObject(column, LocalDateTime.class);
		return time == null ? null : time.toInstant(ZoneOffset.UTC);
	}

	/** An instant as the {@code DATETIME(6)} in UTC that stores it; null stays null. */
	static LocalDateTime utc(Instant instant) {
		return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
	}

	/**
	 * An instant as a statement parameter: the text of its {@code DATETIME(6)} in UTC, which the server reads
	 * exactly, or a typed null. Bound as a time, MySQL Connector/J cut the times of a rewritten batch
	 * ({@code rewriteBatchedStatements}) to whole seconds (MysqlOtherDriverEnqueueTest).
	 */
	static Object parameter(Instant instant) {
		return instant == null ? new SqlParameterValue(Types.VARCHAR, null) : parameter(utc(instant));
	}

	/** As {@link #parameter(Instant)}, for a time read from the database. */
	static String parameter(LocalDateTime utc) {
		return DATETIME.format(utc);
	}

	/**
	 * A duration in microseconds, as {@code INTERVAL … MICROSECOND} takes it; one too long for a long (a retention
	 * of centuries of centuries) saturates, and its date arithmetic then leaves the range of times and compares as
	 * NULL, which no row passes.
	 */
	static long micros(Duration duration) {
		try {
			return Math.addExact(Math.multiplyExact(duration.getSeconds(), 1_000_000L), duration.getNano() / 1000);
		}
		catch (ArithmeticException overflow) {
			return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
		}
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
