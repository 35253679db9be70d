package dev.jobqueue.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.jobqueue.Schedule;
import dev.jobqueue.Schedule.Misfire;

/**
 * The fire times of a schedule that a pass finds due, and what its misfire policy makes of them. A fire
 * time up to the schedule's misfire threshold old is on time; an older one was missed while no node fired the
 * schedule, and the policy decides: none ({@code SKIP}), the latest ({@code ONCE}), or each, oldest first, up to
 * {@link Schedule#MAX_CATCH_UP} ({@code ALL}). Under {@code SKIP} and {@code ONCE} a pass enqueues one job at most:
 * of several fire times due at once, the latest, the others counted as missed.
 *
 * @param fire the fire times to enqueue, in order
 * @param missed how many fire times were found missed, whatever the policy made of them (counted up to
 * {@link #COUNT_LIMIT})
 * @param firstMissed the earliest of them, or {@code null} when none was missed
 * @param next the first fire time after the pass, or {@code null} when the schedule never fires again
 */
record DueFireTimes(List<Instant> fire, long missed, Instant firstMissed, Instant next) {

	/** Missed fire times are counted one by one up to here; an outage longer than that is not walked. */
	static final long COUNT_LIMIT = 100_000;

	static DueFireTimes at(Schedule schedule, Instant from, Instant now) {
		Instant cutoff = now.minus(schedule.misfireThreshold());
		List<Instant> oldest = new ArrayList<>();
		Instant latest = null;
		long missed = 0;
		Instant time = from;
		while (time != null && time.isBefore(cutoff) && missed < COUNT_LIMIT) {
			if (oldest.size() < Schedule.MAX_CATCH_UP) {
				oldest.add(time);
			}
			latest = time;
			missed++;
			time = schedule.nextAfter(time);
		}
		if (time != null && time.isBefore(cutoff)) {
			latest = latestBefore(schedule, cutoff, latest);
			time = schedule.nextAfter(cutoff.minusMillis(1));
		}
		Instant oldestMissed = oldest.isEmpty() ? null : oldest.get(0);
		List<Instant> fire = new ArrayList<>(switch (schedule.misfire()) {
			case SKIP -> List.<Instant>of();
			case ONCE -> latest == null ? List.<Instant>of() : List.of(latest);
			case ALL -> oldest;
		});
		for (; time != null && !time.isAfter(now); time = schedule.nextAfter(time)) {
			fire.add(time);
		}
		if (schedule.misfire() != Misfire.ALL && fire.size() > 1) {
			// A pass that finds several fire times due at once was late for all but the last: under SKIP and ONCE
			// they make one job, not a burst.
			missed += fire.size() - 1;
			oldestMissed = oldestMissed != null ? oldestMissed : fire.get(0);
			fire = new ArrayList<>(List.of(fire.get(fire.size() - 1)));
		}
		return new DueFireTimes(List.copyOf(fire), missed, oldestMissed, time);
	}

	/**
	 * The last fire time before {@code cutoff}, for an outage too long to walk: searched in a window before
	 * the cutoff that doubles until it holds one.
	 */
	private static Instant latestBefore(Schedule schedule, Instant cutoff, Instant fallback) {
		for (Duration window = schedule.misfireThreshold(); window.toDays() < 366 * 100; window = window.multipliedBy(2)) {
			Instant time = schedule.nextAfter(cutoff.minus(window).minusMillis(1));
			if (time != null && time.isBefore(cutoff)) {
				Instant latest = time;
				for (; time != null && time.isBefore(cutoff); time = schedule.nextAfter(time)) {
					latest = time;
				}
				return latest;
			}
		}
		return fallback;
	}
}
