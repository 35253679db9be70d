package dev.jobqueue.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.JobListener;
import dev.jobqueue.Schedule;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.ScheduleFiring;
import dev.jobqueue.store.ScheduleState;
import dev.jobqueue.store.ScheduleStore;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fires the cluster's schedules: those this node declares and those added at runtime. Every runtime runs this role
 * and none is special: each pass reads the schedules' rows, and a node that finds a fire time due moves the row on by
 * compare-and-set and enqueues the job in the same transaction (see {@link ScheduleStore#fireSchedule}), so one
 * node in the cluster enqueues each fire time and the others find the row moved.
 *
 * <p>Fire times are read on the injected clock: the database's ({@link #onDatabaseClock}), in the runtime, as leases
 * and due times of jobs are.
 *
 * <p>A node fires a schedule only while the row holds the timing it declares. It writes its own timing over
 * another once, at its first look at the row (a deploy of a changed schedule: the last node to start
 * decides), or when the row is overdue past its misfire threshold (no node of that timing is firing it).
 * Otherwise it leaves the row to the nodes that declare that timing, so nodes of two versions in a rolling
 * deploy never both fire it, and a rewrite starts after the last fire time, so no instant fires twice.
 *
 * <p>A schedule added at runtime keeps its whole definition in its row ({@link AddedSchedule}): every node fires it
 * from there, and a node that declares a schedule of the same name fires the added one instead until it is removed.
 * No node fires a paused schedule; the first pass after its resume writes its next fire time after now.
 */
public final class Scheduler {

	private static final Logger log = LoggerFactory.getLogger(Scheduler.class);

	/** The scheduler's name in {@link RoleLiveness}. */
	public static final String ROLE = "scheduler";

	private final ScheduleStore store;

	private final List<ScheduledJob> schedules;

	private final Clock clock;

	private final JobListener listener;

	private final Consumer<String> wakeup;

	private final KeySlots keySlots;

	private final JsonMapper json;

	/** The schedules added at runtime, by their definition, read from the rows once each. */
	private final Map<String, ScheduledJob> added = new HashMap<>();

	/** The schedules whose row this node has written or found in agreement: read and written by its thread. */
	private final Set<String> defined = new HashSet<>();

	private final Set<String> warned = new HashSet<>();

	/**
	 * The concurrency key and slots of a fired job, as an enqueue of its kind here would have them, and the
	 * promotion of the keys fired jobs wait for.
	 *
	 * @param of a kind's key slot for a job without a key of its own, or null ({@link KindLimits#keySlot})
	 * @param promote told the keys of the jobs fired, once they are committed
	 */
	public record KeySlots(Function<String, NewJob.KeySlot> of, Consumer<Collection<String>> promote) {

		/** Fired jobs without keys: for tests of firing alone. */
		public static final KeySlots NONE = new KeySlots(kind -> null, keys -> {
		});
	}

	/**
	 * @param wakeup told the queue of each job fired, once it is committed, so that a local poller starts it
	 */
	public Scheduler(ScheduleStore store, List<ScheduledJob> schedules, Clock clock, JobListener listener,
			Consumer<String> wakeup, KeySlots keySlots, JsonMapper json) {
		this.store = store;
		this.schedules = List.copyOf(schedules);
		this.json = json;
		this.clock = clock;
		this.listener = listener;
		this.wakeup = wakeup;
		this.keySlots = keySlots;
	}

	/**
	 * A scheduler as the runtime runs it: fire times on the database's clock, read through {@code store} and kept as
	 * an offset from this machine's {@code local} clock.
	 */
	public static Scheduler onDatabaseClock(JobStore store, List<ScheduledJob> schedules, Clock local,
			JobListener listener, Consumer<String> wakeup, KeySlots keySlots, JsonMapper json) {
		return new Scheduler(store.schedules(), schedules, new DatabaseClock(local, store.explain()::now), listener,
				wakeup, keySlots, json);
	}

	/** One pass over every schedule; returns the earliest next fire time among them, or null for none known. */
	public Instant runOnce() {
		Instant now = clock.instant();
		Map<String, ScheduleState> rows = store.schedules()
			.stream()
			.collect(Collectors.toMap(ScheduleState::name, Function.identity()));
		Instant earliest = null;
		for (ScheduledJob schedule : schedules) {
			earliest = earlier(earliest, passDeclared(schedule, rows.get(schedule.name()), now));
		}
		for (ScheduleState row : rows.values()) {
			if (row.addedAtRuntime()) {
				ScheduledJob job = added(row);
				earliest = job == null ? earliest : earlier(earliest, pass(job, row, now));
			}
		}
		added.keySet().retainAll(rows.values().stream().map(ScheduleState::definition).toList());
		return earliest;
	}

	private static Instant earlier(Instant earliest, Instant next) {
		return next != null && (earliest == null || next.isBefore(earliest)) ? next : earliest;
	}

	private Instant passDeclared(ScheduledJob job, ScheduleState row, Instant now) {
		if (row == null) {
			return define(job, null, now);
		}
		if (row.addedAtRuntime()) {
			if (warned.add(job.name() + " added")) {
				log.warn("Schedule '{}' was added at runtime under the name this node declares it by; the added one "
						+ "fires, and this node's declaration does not until the added one is removed", job.name());
			}
			return null;
		}
		if (!row.timing().equals(job.schedule().timing())) {
			return adopt(job, row, now);
		}
		return pass(job, row, now);
	}

	/** The row holds the job's timing: fire it when due, unless it is paused, or write its time after a resume. */
	private Instant pass(ScheduledJob job, ScheduleState row, Instant now) {
		defined.add(job.name());
		if (row.paused()) {
			return null;
		}
		if (row.nextFireAt() == null) {
			return job.schedule().enabled() ? define(job, row, now) : null;
		}
		if (row.nextFireAt().isAfter(now)) {
			return row.nextFireAt();
		}
		return fire(job, row, now);
	}

	/** The job of a row added at runtime, or null, warned once, for one this version cannot read. */
	private ScheduledJob added(ScheduleState row) {
		ScheduledJob job = added.get(row.definition());
		if (job != null) {
			return job;
		}
		try {
			job = AddedSchedule.read(json, row.name(), row.definition());
		}
		catch (RuntimeException ex) {
			if (warned.add(row.name() + " " + row.definition())) {
				log.warn("Schedule '{}' was added at runtime with a definition this node cannot read, so it leaves the "
						+ "schedule to the nodes that can: {}", row.name(), ex.getMessage());
			}
			return null;
		}
		added.put(row.definition(), job);
		return job;
	}

	/** The row holds another timing: take it over on this node's first look, or when nobody fires it. */
	private Instant adopt(ScheduledJob job, ScheduleState row, Instant now) {
		boolean abandoned = row.nextFireAt() != null
				&& row.nextFireAt().isBefore(now.minus(job.schedule().misfireThreshold()));
		if (!defined.contains(job.name()) || abandoned) {
			return define(job, row, now);
		}
		if (warned.add(job.name() + " " + row.timing())) {
			log.warn("Schedule '{}' is now '{}', written by a node that started later; this node declares '{}' and "
					+ "leaves the schedule to that node", job.name(), row.timing(), job.schedule().timing());
		}
		return null;
	}

	/** Writes this node's timing, to fire next after now and after the last fire time, whichever is later. */
	private Instant define(ScheduledJob job, ScheduleState row, Instant now) {
		Schedule schedule = job.schedule();
		Instant next = nextFireTime(schedule, row, now);
		String definition = row == null ? null : row.definition();
		if (!store.defineSchedule(job.name(), schedule.timing(), definition, next, row == null ? 0 : row.version())) {
			return null;
		}
		defined.add(job.name());
		log.info("Schedule '{}' is {}{}; next fire time {}", job.name(), schedule.timing(),
				row == null || row.timing().equals(schedule.timing()) ? "" : " (was " + row.timing() + ")", next);
		return next;
	}

	/**
	 * The first fire time of {@code schedule} after now and after the last fire time of its {@code row} (null for a
	 * new one), whichever is later, so that no instant fires twice; null while it is disabled.
	 */
	static Instant nextFireTime(Schedule schedule, ScheduleState row, Instant now) {
		Instant from = row == null || row.lastFireAt() == null || now.isAfter(row.lastFireAt()) ? now
				: row.lastFireAt();
		return schedule.enabled() ? schedule.nextAfter(from) : null;
	}

	private Instant fire(ScheduledJob job, ScheduleState row, Instant now) {
		DueFireTimes due = DueFireTimes.at(job.schedule(), row.nextFireAt(), now);
		Instant last = due.fire().isEmpty() ? null : due.fire().get(due.fire().size() - 1);
		// Asked at each fire: the kind's declared limits may have changed since the last.
		NewJob.KeySlot slot = keySlots.of().apply(job.schedule().kind());
		ScheduleFiring firing = new ScheduleFiring(job.name(), row.version(), last, due.next(),
				due.fire().stream().map(time -> job.job(time, slot)).toList());
		if (!store.fireSchedule(firing)) {
			// Another node fired it first; it computed the same next fire time from the same row.
			return job.schedule().nextAfter(now);
		}
		report(job, due);
		if (slot != null && !due.fire().isEmpty()) {
			keySlots.promote().accept(List.of(slot.key()));
		}
		return due.next();
	}

	private void report(ScheduledJob job, DueFireTimes due) {
		if (due.missed() > 0) {
			log.warn("Schedule '{}' missed {} fire time(s) from {} while no node fired it; misfire policy {}",
					job.name(), due.missed(), due.firstMissed(),
					job.schedule().misfire());
			listener.onScheduleMisfired(job.name(), due.missed());
		}
		if (!due.fire().isEmpty()) {
			listener.onScheduleFired(job.name(), due.fire().size());
			due.fire().forEach(time -> listener.onEnqueued(job.queue(), job.schedule().kind()));
			wakeup.accept(job.queue());
		}
	}

	/**
	 * Passes until the thread is interrupted, each as soon as the earliest next fire time comes, and at least
	 * every {@code maxWait}, so that changes other nodes write are seen.
	 */
	void loop(RoleLiveness liveness, Duration maxWait) {
		while (!Thread.currentThread().isInterrupted()) {
			Instant[] next = new Instant[1];
			liveness.pass(ROLE, () -> next[0] = runOnce(), maxWait);
			Duration wait = next[0] == null ? maxWait : Duration.between(clock.instant(), next[0]);
			try {
				Thread.sleep(Math.max(10, Math.min(wait.toMillis(), maxWait.toMillis())));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}
}
