package dev.jobqueue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;

/** Argument checks whose messages name the option that is wrong. */
final class Validate {

	private Validate() {
	}

	static void isTrue(boolean condition, String option, String problem) {
		if (!condition) {
			throw new IllegalArgumentException(option + " " + problem);
		}
	}

	/** For problems whose text costs something to build: it is built only when the check fails. */
	static void isTrue(boolean condition, String option, Supplier<String> problem) {
		if (!condition) {
			throw new IllegalArgumentException(option + " " + problem.get());
		}
	}

	static String notBlank(String value, String option) {
		isTrue(value != null && !value.isBlank(), option, "must not be blank");
		return value;
	}

	/** PostgreSQL text cannot hold U+0000, and a value one database refuses is refused on every one. */
	static String noNul(String value, String option) {
		isTrue(value.indexOf('\u0000') < 0, option, "must not hold the character U+0000");
		return value;
	}

	/** A key: not blank, without U+0000, at most {@code maxBytes} bytes of UTF-8. */
	static String key(String value, String option, int maxBytes) {
		noNul(notBlank(value, option), option);
		int bytes = value.getBytes(StandardCharsets.UTF_8).length;
		isTrue(bytes <= maxBytes, option, () -> "must be at most " + maxBytes + " bytes of UTF-8, was " + bytes);
		return value;
	}

	static Duration positive(Duration value, String option) {
		isTrue(value != null && !value.isNegative() && !value.isZero(), option, "must be a positive duration, was " + value);
		return value;
	}

	static Duration notNegative(Duration value, String option) {
		isTrue(value != null && !value.isNegative(), option, "must not be negative, was " + value);
		return value;
	}
}
