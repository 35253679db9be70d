package dev.jobqueue;

import java.util.List;

/**
 * The recurring jobs of the whole cluster, while it runs: those declared in code, and those added here, which the
 * database keeps. An added schedule fires like a declared one, once per fire time in the cluster, on whichever nodes
 * run; a pause, a resume and a removal hold for every node. Names are shared: {@code [A-Za-z0-9_.-]{1,100}}.
 *
 * <pre>{@code
 * queue.schedules().put("report-" + tenant, Schedule.cron("0 0 6 * * *", zone).kind("report").payload(tenant));
 * queue.schedules().trigger("report-" + tenant);
 * }</pre>
 */
public interface Schedules {

	/** Every schedule of the cluster, in name order, declared and added. */
	List<ScheduleStatus> list();

	/**
	 * Adds {@code schedule} under {@code name}, or replaces the one added under it before, for every node from its
	 * next pass (within a poll interval). Its job's queue, payload version and attempts are resolved here, as an
	 * enqueue of its kind here would have them, and kept with it. A replacement keeps the schedule's last fire time
	 * and its pause, and fires next after now and after the last fire time. Returns whether it was added, not replaced.
	 *
	 * @throws IllegalArgumentException for a name that breaks the rule, a schedule without a kind, a kind this node
	 * neither serves nor declares external, a payload that does not fit the kind's handler, or a name declared in code
	 * (by this node, or by others: a declared schedule's row holds no definition); nothing is written then
	 */
	boolean put(String name, Schedule schedule);

	/**
	 * Removes the schedule added under {@code name}, or the row of one that is no longer declared; returns whether
	 * there was one. Its jobs already enqueued stay.
	 *
	 * @throws IllegalArgumentException when this node declares the schedule in code: remove the declaration, or pause
	 * it; nothing is written then
	 */
	boolean remove(String name);

	/**
	 * Pauses the schedule, on every node, until it is {@link #resume resumed}; returns whether it was not paused. Its
	 * jobs already enqueued run, and {@link #trigger} still enqueues one.
	 *
	 * @throws IllegalArgumentException for a schedule that does not exist; nothing is written then
	 */
	boolean pause(String name);

	/**
	 * Lifts the pause of a schedule; returns whether it was paused. It fires next at its first fire time after now:
	 * those passed while it was paused are neither enqueued nor counted as misfires.
	 *
	 * @throws IllegalArgumentException for a schedule that does not exist; nothing is written then
	 */
	boolean resume(String name);

	/**
	 * Enqueues the schedule's job now, paused or not, and returns its id; the schedule's own fire times go on as
	 * before. Its unique key names the schedule and this moment ({@code schedule:<name>@<now> now}).
	 *
	 * @throws IllegalArgumentException for a schedule that does not exist, or one declared by other nodes only, whose
	 * job this node does not know; nothing is written then
	 */
	long trigger(String name);
}
