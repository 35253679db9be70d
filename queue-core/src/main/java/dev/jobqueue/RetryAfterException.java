package dev.jobqueue;

import java.time.Duration;

/**
 * Thrown by a handler to fail its attempt and choose when the job is tried again, in place of the retry
 * policy's backoff: the {@code Retry-After} of an HTTP 429 or 503, a quota that resets at a known time. The
 * attempt counts as a failure like any other (error history, attempts used up, then dead); only its wait
 * differs.
 *
 * <pre>{@code
 * if (response.statusCode() == 429) {
 *     throw new RetryAfterException(Duration.ofSeconds(retryAfterSeconds), "rate limited by the mail API");
 * }
 * }</pre>
 */
public class RetryAfterException extends RuntimeException {

	private final Duration delay;

	/** @param delay how long from now until the job is due again; positive */
	public RetryAfterException(Duration delay, String message) {
		this(delay, message, null);
	}

	public RetryAfterException(Duration delay, String message, Throwable cause) {
		super(message, cause);
		this.delay = Validate.positive(delay, "delay");
	}

	/** How long from the failure until the job is due again. */
	public Duration delay() {
		return delay;
	}
}
