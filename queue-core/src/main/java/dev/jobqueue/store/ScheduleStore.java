package dev.jobqueue.store;

import java.time.Instant;
import java.util.List;

/** The rows of recurring jobs, shared by every node: each fire time enqueues one job in the whole cluster. */
public interface ScheduleStore {

	/** Every schedule's row, by name: the schedules of every node that ever declared one, and those added at runtime. */
	List<ScheduleState> schedules();

	/**
	 * Writes a schedule's timing, definition and next fire time: a new row when {@code expectedVersion} is 0 and none
	 * exists, else the row still at {@code expectedVersion}, whose last fire time and pause stay. Returns whether it
	 * wrote; false when another node wrote first.
	 *
	 * @param definition the whole schedule as JSON for one added at runtime, null for one declared in code
	 */
	boolean defineSchedule(String name, String timing, String definition, Instant nextFireAt, long expectedVersion);

	/**
	 * Advances a schedule still at {@code firing.version()} and enqueues its jobs, in one transaction; returns
	 * false, changing nothing, when another node advanced or redefined it first. This compare-and-set is what
	 * makes each fire time enqueue one job in the whole cluster.
	 */
	boolean fireSchedule(ScheduleFiring firing);

	/**
	 * Pauses a schedule that is not paused (its pause time the database's now), or resumes one that is, clearing its
	 * next fire time for a node that knows the schedule to write again after now; returns whether it changed.
	 */
	boolean pauseSchedule(String name, boolean paused);

	/** Deletes a schedule's row; returns whether there was one. */
	boolean removeSchedule(String name);
}
