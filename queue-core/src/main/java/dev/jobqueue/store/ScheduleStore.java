package dev.jobqueue.store;

import java.time.Instant;
import java.util.List;

/** The rows of recurring jobs, shared by every node: each fire time enqueues one job in the whole cluster. */
public interface ScheduleStore {

	/** Every schedule's row, by name: the schedules of every node that ever declared one. */
	List<ScheduleState> schedules();

	/**
	 * Writes a schedule's timing and next fire time: a new row when {@code expectedVersion} is 0 and none
	 * exists, else the row still at {@code expectedVersion}, whose last fire time stays. Returns whether it
	 * wrote; false when another node wrote first.
	 */
	boolean defineSchedule(String name, String timing, Instant nextFireAt, long expectedVersion);

	/**
	 * Advances a schedule still at {@code firing.version()} and enqueues its jobs, in one transaction; returns
	 * false, changing nothing, when another node advanced or redefined it first. This compare-and-set is what
	 * makes each fire time enqueue one job in the whole cluster.
	 */
	boolean fireSchedule(ScheduleFiring firing);
}
