package dev.jobqueue.autoconfigure;

import java.time.Duration;

import org.springframework.boot.convert.DurationStyle;

/**
 * A schedule's interval as written ({@code every} on a {@code @JobHandler} or in configuration): a duration with
 * its unit, such as {@code 30s}, {@code 5m} or {@code PT1H}. A bare number is refused rather than read as
 * milliseconds, Spring's default unit, which no schedule means.
 */
final class IntervalText {

	private IntervalText() {
	}

	static Duration parse(String text) {
		String trimmed = text.trim();
		if (trimmed.matches("[-+]?\\d+")) {
			throw new IllegalArgumentException("'" + trimmed + "' has no unit; write it with one, such as " + trimmed
					+ "s or " + trimmed + "m");
		}
		return DurationStyle.detectAndParse(trimmed);
	}
}
