package dev.jobqueue.store;

import java.time.Instant;
import java.util.List;

/**
 * One firing of a schedule: its row moves from {@code version} to the next fire time, and its jobs are
 * enqueued, all in one transaction, or nothing happens when another node moved the row first.
 *
 * @param lastFireAt the latest fire time of {@code jobs}, or {@code null} when none fires (misfires skipped)
 * @param nextFireAt the fire time the row waits for next
 * @param jobs one job per fire time enqueued, each with its unique key
 */
public record ScheduleFiring(String name, long version, Instant lastFireAt, Instant nextFireAt, List<NewJob> jobs) {

	public ScheduleFiring {
		jobs = List.copyOf(jobs);
	}
}
