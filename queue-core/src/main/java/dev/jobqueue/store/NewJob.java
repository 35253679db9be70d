package dev.jobqueue.store;

import java.time.Duration;
import java.time.Instant;

/**
 * A job ready to be written: options resolved, payload already JSON. Exactly one of {@code runAt}
 * and {@code delay} is set, so that a delay is measured on the store's own clock.
 *
 * @param payloadVersion the version of the payload's shape, 1 or more: claims by nodes that read only
 * older versions pass the job over
 */
public record NewJob(String queue, String kind, String payload, int payloadVersion, int priority, Instant runAt,
		Duration delay, int maxAttempts, String uniqueKey) {

	public NewJob {
		if ((runAt == null) == (delay == null)) {
			throw new IllegalArgumentException("exactly one of runAt and delay must be set");
		}
		if (payloadVersion < 1) {
			throw new IllegalArgumentException("payloadVersion must be at least 1, was " + payloadVersion);
		}
	}

	/** The delay in milliseconds, for statements that add it to the store's clock. */
	public long delayMillis() {
		return delay == null ? 0 : delay.toMillis();
	}
}
