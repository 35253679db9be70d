package dev.jobqueue.runtime;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How {@link JobExplainer}'s sentences write times, durations, errors and counts: coarse on purpose, so that
 * "due in 4 m" reads the same a few milliseconds later.
 */
final class ExplainText {

	/** The longest error text a sentence quotes: the first line of the stored error, cut. */
	static final int MAX_ERROR = 200;

	private ExplainText() {
	}

	/** An instant to the second, in ISO-8601 UTC: {@code 2026-11-27T10:04:00Z}. */
	static String time(Instant instant) {
		return instant.truncatedTo(ChronoUnit.SECONDS).toString();
	}

	/**
	 * A duration in its largest fitting unit, rounded to the nearest: {@code 40 s}, {@code 4 m}, {@code 3 h},
	 * {@code 2 d}; {@code under 1 s} below half a second.
	 */
	static String duration(Duration duration) {
		long millis = duration.toMillis();
		if (millis < 500) {
			return "under 1 s";
		}
		if (millis < 59_500) {
			return rounded(millis, 1_000) + " s";
		}
		if (millis < 3_570_000) {
			return rounded(millis, 60_000) + " m";
		}
		if (millis < 171_000_000) {
			return rounded(millis, 3_600_000) + " h";
		}
		return rounded(millis, 86_400_000) + " d";
	}

	private static long rounded(long millis, long unit) {
		return (millis + unit / 2) / unit;
	}

	/** The first line of a stored error (the exception and its message, without the stack trace), cut. */
	static String error(String lastError) {
		if (lastError == null || lastError.isBlank()) {
			return "no error recorded";
		}
		String line = lastError.strip().lines().findFirst().orElse("");
		return line.length() <= MAX_ERROR ? line : line.substring(0, MAX_ERROR - 1) + "…";
	}

	/** {@code 1 attempt}, {@code 3 attempts}. */
	static String count(long count, String noun) {
		return count + " " + noun + (count == 1 ? "" : "s");
	}

	/** {@code job 17}, {@code jobs 17, 18}, {@code jobs 17, 18 and 5 more}. */
	static String jobs(List<Long> ids, long total) {
		String listed = ids.stream().map(String::valueOf).collect(Collectors.joining(", "));
		String more = total > ids.size() ? " and " + (total - ids.size()) + " more" : "";
		return (total == 1 ? "job " : "jobs ") + listed + more;
	}
}
