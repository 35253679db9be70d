package dev.jobqueue.store.mysql.support;

import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import org.springframework.jdbc.core.SqlParameterValue;

/**
 * Values as MySQL statements bind them: times as {@code DATETIME(6)} in UTC, durations in microseconds for
 * {@code INTERVAL … MICROSECOND}.
 */
public final class MysqlValues {

	private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");

	private MysqlValues() {
	}

	/** An instant as the {@code DATETIME(6)} in UTC that stores it; null stays null. */
	public static LocalDateTime utc(Instant instant) {
		return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
	}

	/**
	 * An instant as a statement parameter: the text of its {@code DATETIME(6)} in UTC, which the server reads
	 * exactly, or a typed null. Bound as a time, MySQL Connector/J cut the times of a rewritten batch
	 * ({@code rewriteBatchedStatements}) to whole seconds (MysqlOtherDriverEnqueueTest).
	 */
	public static Object parameter(Instant instant) {
		return instant == null ? new SqlParameterValue(Types.VARCHAR, null) : parameter(utc(instant));
	}

	/** As {@link #parameter(Instant)}, for a time read from the database. */
	public static String parameter(LocalDateTime utc) {
		return DATETIME.format(utc);
	}

	/**
	 * A duration in microseconds, as {@code INTERVAL … MICROSECOND} takes it; one too long for a long (a retention
	 * of centuries of centuries) saturates, and its date arithmetic then leaves the range of times and compares as
	 * NULL, which no row passes.
	 */
	public static long micros(Duration duration) {
		try {
			return Math.addExact(Math.multiplyExact(duration.getSeconds(), 1_000_000L), duration.getNano() / 1000);
		}
		catch (ArithmeticException overflow) {
			return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
		}
	}
}
