package dev.jobqueue;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How often a failing job is tried and how long it waits between tries: exponential backoff from
 * {@code initialBackoff}, multiplied by {@code multiplier} per attempt, capped at {@code maxBackoff},
 * with up to {@code jitter} (a fraction) taken off at random so that jobs failing together do not
 * retry together.
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff, double multiplier,
		double jitter) {

	public static final RetryPolicy DEFAULT = new RetryPolicy(20, Duration.ofSeconds(1), Duration.ofHours(1), 2.0,
			0.2);

	public RetryPolicy {
		Validate.isTrue(maxAttempts >= 1, "maxAttempts", "must be at least 1, was " + maxAttempts);
		Validate.positive(initialBackoff, "initialBackoff");
		Validate.positive(maxBackoff, "maxBackoff");
		Validate.isTrue(multiplier >= 1.0, "multiplier", "must be at least 1.0, was " + multiplier);
		Validate.isTrue(jitter >= 0.0 && jitter < 1.0, "jitter", "must be in [0, 1), was " + jitter);
	}

	/** The delay before the try that follows failed attempt number {@code attempt} (1-based). */
	public Duration backoffAfter(int attempt) {
		double exponential = initialBackoff.toMillis() * Math.pow(multiplier, Math.max(0, attempt - 1));
		double capped = Math.min(exponential, maxBackoff.toMillis());
		double jittered = capped * (1.0 - jitter * ThreadLocalRandom.current().nextDouble());
		return Duration.ofMillis(Math.max(1, Math.round(jittered)));
	}

	public RetryPolicy withMaxAttempts(int maxAttempts) {
		return new RetryPolicy(maxAttempts, initialBackoff, maxBackoff, multiplier, jitter);
	}
}
