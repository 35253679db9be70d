package dev.jobqueue;

import java.time.Instant;

/**
 * A schedule as the cluster shares it, read from its row.
 *
 * @param timing such as {@code every PT15M} or {@code cron 0 0 2 * * * Europe/Paris} ({@link Schedule#timing()})
 * @param kind the kind of its jobs, or {@code null} for a schedule that only other nodes declare
 * @param nextFireAt its next fire time, or {@code null} while it is disabled, paused, or just resumed (a node writes
 * the next one at its next pass)
 * @param lastFireAt the latest fire time enqueued, or {@code null} before the first
 * @param pausedAt when it was paused, or {@code null} while it is not
 * @param added whether it was {@linkplain Schedules#put added at runtime}, rather than declared in code
 */
public record ScheduleStatus(String name, String timing, String kind, Instant nextFireAt, Instant lastFireAt,
		Instant pausedAt, boolean added) {

	/** Whether it is paused: no node fires it. */
	public boolean paused() {
		return pausedAt != null;
	}
}
