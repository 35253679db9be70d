package dev.jobqueue;

import java.time.Duration;

/**
 * Thrown by a handler to say "not yet": the job goes back to ready, due after {@link #delay()}, and the
 * attempt does not count: no failure is recorded, no error is added to the history, and its attempt number
 * is given back. Snoozes are counted on the job, apart from attempts; once a job has snoozed
 * {@link #MAX_SNOOZES} times, its next snooze fails it for good (dead, saying so), so that a job that
 * snoozes for ever is noticed rather than kept waiting unseen.
 *
 * <pre>{@code
 * if (!report.inputsReady()) {
 *     throw new SnoozeException(Duration.ofMinutes(10));
 * }
 * }</pre>
 *
 * A transactional handler's work is rolled back, as for any exception it throws.
 */
public final class SnoozeException extends RuntimeException {

	/** How many snoozes a job may make; the one after them makes it dead. */
	public static final int MAX_SNOOZES = 100;

	private final Duration delay;

	/** @param delay how long from now until the job is due again; positive */
	public SnoozeException(Duration delay) {
		// No stack trace: it is an answer, not an error, and it is never stored.
		super("snoozed for " + delay, null, false, false);
		this.delay = Validate.positive(delay, "delay");
	}

	public Duration delay() {
		return delay;
	}
}
