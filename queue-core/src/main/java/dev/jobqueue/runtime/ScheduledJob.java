package dev.jobqueue.runtime;

import java.time.Duration;
import java.time.Instant;

import dev.jobqueue.Schedule;
import dev.jobqueue.store.NewJob;

/**
 * A schedule checked against this node's handlers, with everything its jobs need resolved: queue, payload
 * JSON, payload version and attempts, as an enqueue of its kind here would have them.
 */
public record ScheduledJob(String name, Schedule schedule, String queue, String payload, int payloadVersion,
		int maxAttempts) {

	/** The prefix of the unique keys of scheduled jobs; the rest is the schedule's name and fire time. */
	public static final String KEY_PREFIX = "schedule:";

	/**
	 * The job for {@code fireTime}, due now, its unique key naming its schedule and fire time.
	 *
	 * @param keySlot the kind's concurrency key and slots, or null
	 */
	NewJob job(Instant fireTime, NewJob.KeySlot keySlot) {
		return job(uniqueKey(name, fireTime), keySlot);
	}

	/** The job of a {@linkplain dev.jobqueue.Schedules#trigger trigger} at {@code now}, its key apart from fire times'. */
	NewJob triggered(Instant now, NewJob.KeySlot keySlot) {
		return job(uniqueKey(name, now) + " now", keySlot);
	}

	private NewJob job(String uniqueKey, NewJob.KeySlot keySlot) {
		return new NewJob(queue, schedule.kind(), payload, payloadVersion, schedule.priority(), null, Duration.ZERO,
				maxAttempts, uniqueKey, keySlot);
	}

	/** {@code schedule:<name>@<fire time>}, the fire time in ISO-8601 UTC: one job per fire time. */
	public static String uniqueKey(String name, Instant fireTime) {
		return KEY_PREFIX + name + "@" + fireTime;
	}
}
