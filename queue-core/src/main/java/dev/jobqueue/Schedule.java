package dev.jobqueue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.function.Consumer;

import org.springframework.scheduling.support.CronExpression;

/**
 * When a recurring job fires, and the job it enqueues: a cron expression in a time zone, or a fixed
 * interval, with the job's kind, payload, queue and priority. Every node that declares the same schedule
 * takes part in firing it, and each fire time enqueues one job in the whole cluster.
 *
 * <pre>{@code
 * Schedule.cron("0 0 2 * * *", ZoneId.of("Europe/Paris")).kind("nightly-report")
 * Schedule.every(Duration.ofMinutes(15)).kind("sync-prices").payload(new Sync("eu")).misfire(Misfire.ONCE)
 * }</pre>
 *
 * Cron expressions are Spring's {@link CronExpression} (six fields, seconds first, or a macro such as
 * {@code @daily}), which also decides daylight-saving transitions. An interval counts from the epoch, so
 * every node computes the same fire times: {@code every(15m)} fires at :00, :15, :30 and :45. Immutable:
 * each method returns a copy with one thing changed, and checks it at once.
 */
public final class Schedule {

	/** What to do with fire times that passed while no node was firing (the whole cluster was down). */
	public enum Misfire {
		/** None of them run; the schedule goes on from its next fire time. */
		SKIP,
		/** One job runs now for the latest of them. */
		ONCE,
		/** A job runs now for each of them, oldest first, at most {@link Schedule#MAX_CATCH_UP}. */
		ALL
	}

	/**
	 * What a cron schedule in a zone with daylight saving does on the day clocks go back, when a local time such as
	 * 02:30 happens twice.
	 */
	public enum FallBack {
		/** It fires at the first of the two, as cron and Quartz do. */
		ONCE,
		/** It fires at both. */
		TWICE
	}

	/** The most missed fire times {@link Misfire#ALL} enqueues after one outage; the rest are skipped. */
	public static final int MAX_CATCH_UP = 100;

	/** The shortest interval: the scheduler works in database round trips, not in milliseconds. */
	public static final Duration MIN_INTERVAL = Duration.ofSeconds(1);

	/** How late a fire time may be enqueued and still count as on time, unless the schedule says otherwise. */
	public static final Duration DEFAULT_MISFIRE_THRESHOLD = Duration.ofMinutes(1);

	private String cron;

	private CronExpression expression;

	private ZoneId zone;

	private Duration every;

	private String kind;

	private Object payload;

	private String queue;

	private int priority = EnqueueOptions.DEFAULT_PRIORITY;

	private Misfire misfire = Misfire.SKIP;

	private Duration misfireThreshold = DEFAULT_MISFIRE_THRESHOLD;

	private boolean enabled = true;

	private FallBack fallBack = FallBack.ONCE;

	private Schedule() {
	}

	/** Fires at the times {@code expression} matches in {@code zone}. */
	public static Schedule cron(String expression, ZoneId zone) {
		Validate.notBlank(expression, "cron");
		Validate.isTrue(zone != null, "zone", "must not be null");
		Schedule schedule = new Schedule();
		try {
			schedule.expression = CronExpression.parse(expression);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("cron '" + expression + "' is invalid: " + ex.getMessage(), ex);
		}
		schedule.cron = expression;
		schedule.zone = zone;
		Validate.isTrue(schedule.nextAfter(Instant.now()) != null, "cron", "'" + expression + "' never fires");
		return schedule;
	}

	/** Fires at the times {@code expression} matches in UTC. */
	public static Schedule cron(String expression) {
		return cron(expression, ZoneOffset.UTC);
	}

	/** Fires every {@code interval} (at least {@link #MIN_INTERVAL}, in whole milliseconds), counted from the epoch. */
	public static Schedule every(Duration interval) {
		Validate.positive(interval, "every");
		Validate.isTrue(interval.compareTo(MIN_INTERVAL) >= 0, "every", "must be at least " + MIN_INTERVAL
				+ ", was " + interval);
		Validate.isTrue(interval.toNanos() % 1_000_000 == 0, "every", "must be whole milliseconds, was " + interval);
		Schedule schedule = new Schedule();
		schedule.every = interval;
		return schedule;
	}

	/** The kind of the jobs it enqueues. Required. */
	public Schedule kind(String kind) {
		Validate.noNul(Validate.notBlank(kind, "kind"), "kind");
		return copy(schedule -> schedule.kind = kind);
	}

	/** The payload of every job it enqueues, written as JSON; {@code null} (the default) is JSON {@code null}. */
	public Schedule payload(Object payload) {
		return copy(schedule -> schedule.payload = payload);
	}

	/** The queue of its jobs; by default the kind's handler's queue, else {@code default}. */
	public Schedule queue(String queue) {
		QueueNames.requireValid(queue, "queue");
		return copy(schedule -> schedule.queue = queue);
	}

	/** The priority of its jobs, 0 (first) to 9 (last); {@link EnqueueOptions#DEFAULT_PRIORITY} by default. */
	public Schedule priority(int priority) {
		Validate.isTrue(priority >= EnqueueOptions.HIGHEST_PRIORITY && priority <= EnqueueOptions.LOWEST_PRIORITY,
				"priority", "must be between 0 and 9, was " + priority);
		return copy(schedule -> schedule.priority = priority);
	}

	/** What happens to fire times missed while no node was firing; {@link Misfire#SKIP} by default. */
	public Schedule misfire(Misfire misfire) {
		Validate.isTrue(misfire != null, "misfire", "must not be null");
		return copy(schedule -> schedule.misfire = misfire);
	}

	/** Whether a local time that happens twice on the day clocks go back fires twice; once by default. */
	public Schedule fallBack(FallBack fallBack) {
		Validate.isTrue(fallBack != null, "fallBack", "must not be null");
		return copy(schedule -> schedule.fallBack = fallBack);
	}

	/** How late a fire time may be and still be enqueued as on time rather than as a misfire. */
	public Schedule misfireThreshold(Duration threshold) {
		Validate.positive(threshold, "misfireThreshold");
		return copy(schedule -> schedule.misfireThreshold = threshold);
	}

	/**
	 * A disabled schedule fires on no node: the node that starts with it disabled stops it cluster-wide,
	 * like any change of its timing.
	 */
	public Schedule enabled(boolean enabled) {
		return copy(schedule -> schedule.enabled = enabled);
	}

	/** The first fire time strictly after {@code instant}, or {@code null} when there is none. */
	public Instant nextAfter(Instant instant) {
		if (every != null) {
			long millis = every.toMillis();
			return Instant.ofEpochMilli(Math.floorDiv(instant.toEpochMilli(), millis) * millis + millis);
		}
		ZonedDateTime next = expression.next(instant.atZone(zone));
		// The second occurrence of a repeated local time is at the later offset of the overlap; its first
		// occurrence matched the same fields an hour before.
		if (next != null && fallBack == FallBack.ONCE && !next.isEqual(next.withEarlierOffsetAtOverlap())) {
			next = expression.next(next);
		}
		return next == null ? null : next.toInstant();
	}

	/**
	 * The schedule's timing as text, such as {@code cron 0 0 2 * * * Europe/Paris} or {@code every PT15M}:
	 * two nodes fire a schedule together only while they agree on it.
	 */
	public String timing() {
		if (!enabled) {
			return "disabled";
		}
		if (every != null) {
			return "every " + every;
		}
		// UTC has several names (UTC, Z, Etc/UTC); one spelling keeps nodes that use different ones in agreement.
		return "cron " + cron + " " + (zone.normalized().equals(ZoneOffset.UTC) ? "UTC" : zone.getId())
				+ (fallBack == FallBack.TWICE ? " fall-back twice" : "");
	}

	private Schedule copy(Consumer<Schedule> change) {
		Schedule copy = new Schedule();
		copy.cron = cron;
		copy.expression = expression;
		copy.zone = zone;
		copy.every = every;
		copy.kind = kind;
		copy.payload = payload;
		copy.queue = queue;
		copy.priority = priority;
		copy.misfire = misfire;
		copy.misfireThreshold = misfireThreshold;
		copy.enabled = enabled;
		copy.fallBack = fallBack;
		change.accept(copy);
		return copy;
	}

	/** The cron expression, or {@code null} for an interval. */
	public String cron() {
		return cron;
	}

	/** The cron expression's zone, or {@code null} for an interval. */
	public ZoneId zone() {
		return zone;
	}

	/** The interval, or {@code null} for a cron expression. */
	public Duration every() {
		return every;
	}

	public String kind() {
		return kind;
	}

	public Object payload() {
		return payload;
	}

	/** The queue, or {@code null} for the kind's handler's. */
	public String queue() {
		return queue;
	}

	public int priority() {
		return priority;
	}

	public Misfire misfire() {
		return misfire;
	}

	public Duration misfireThreshold() {
		return misfireThreshold;
	}

	public boolean enabled() {
		return enabled;
	}

	public FallBack fallBack() {
		return fallBack;
	}

	@Override
	public String toString() {
		return timing() + " → " + kind;
	}
}
