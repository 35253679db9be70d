package dev.jobqueue.store;

import java.time.Instant;

/**
 * The jobs of one queue that finished in one minute, by how they finished: the console's throughput and failures.
 *
 * @param minute the minute's start, by the database's clock
 * @param succeeded the jobs whose handler succeeded
 * @param cancelled the jobs cancelled
 * @param dead the jobs that failed for good (their last attempt failed, or the failure was not retryable)
 */
public record FinishedMinute(String queue, Instant minute, long succeeded, long cancelled, long dead) {

	/**
	 * At most this many finished jobs of a queue and state are read, newest first, so that the read stays cheap at
	 * any rate of work: past it, the oldest of the minutes asked for are counted short (or left out).
	 */
	public static final int CAP = 100_000;

	/** The most minutes one read may ask for. */
	public static final int MAX_MINUTES = 60;

	/** Refuses a number of minutes outside 1 - {@link #MAX_MINUTES}. */
	public static int checkMinutes(int minutes) {
		if (minutes < 1 || minutes > MAX_MINUTES) {
			throw new IllegalArgumentException("minutes must be between 1 and " + MAX_MINUTES + ", was " + minutes);
		}
		return minutes;
	}
}
