package dev.jobqueue.runtime;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.Schedule;
import dev.jobqueue.ScheduleStatus;
import dev.jobqueue.Schedules;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.ScheduleState;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link Schedules} on the schedules' rows: each change one statement on the row, which every node's
 * {@link Scheduler} reads at its next pass. What is known of a schedule declared in code is this node's declaration;
 * an added one is all in its row.
 */
final class RuntimeSchedules implements Schedules {

	/** How often {@link #put} reads the row again when a node's firing moved it between the read and the write. */
	private static final int PUT_ATTEMPTS = 10;

	private final JobStore store;

	private final HandlerRegistry handlers;

	private final JsonMapper json;

	private final RetryPolicy defaultPolicy;

	private final Function<String, NewJob.KeySlot> keySlots;

	private final Function<NewJob, EnqueueResult> insert;

	/**
	 * @param keySlots a kind's key slot for a job without a key of its own, or null ({@link KindLimits#keySlot})
	 * @param insert enqueues a triggered job as an enqueue here does
	 */
	RuntimeSchedules(JobStore store, HandlerRegistry handlers, JsonMapper json, RetryPolicy defaultPolicy,
			Function<String, NewJob.KeySlot> keySlots, Function<NewJob, EnqueueResult> insert) {
		this.store = store;
		this.handlers = handlers;
		this.json = json;
		this.defaultPolicy = defaultPolicy;
		this.keySlots = keySlots;
		this.insert = insert;
	}

	@Override
	public List<ScheduleStatus> list() {
		return store.schedules().schedules().stream().map(this::status).toList();
	}

	private ScheduleStatus status(ScheduleState row) {
		String kind = row.addedAtRuntime() ? added(row).map(job -> job.schedule().kind()).orElse(null)
				: declaredHere(row.name()).map(definition -> definition.schedule().kind()).orElse(null);
		return new ScheduleStatus(row.name(), row.timing(), kind, row.nextFireAt(), row.lastFireAt(), row.pausedAt(),
				row.addedAtRuntime());
	}

	@Override
	public boolean put(String name, Schedule schedule) {
		ScheduleDefinition definition = new ScheduleDefinition(name, schedule, "Schedules.put");
		require(declaredHere(name).isEmpty(), "schedule '" + name + "' is declared in code on this node ("
				+ declaredHere(name).map(ScheduleDefinition::description).orElse("") + "); add it under another name");
		ScheduledJob job;
		try {
			job = ScheduledJobs.resolve(definition, handlers, json, defaultPolicy);
		}
		catch (IllegalStateException ex) {
			throw new IllegalArgumentException(ex.getMessage(), ex);
		}
		String text = AddedSchedule.write(json, job);
		for (int attempt = 0; attempt < PUT_ATTEMPTS; attempt++) {
			Optional<ScheduleState> row = row(name);
			require(row.isEmpty() || row.get().addedAtRuntime(), "schedule '" + name + "' is declared in code by "
					+ "other nodes; add it under another name, or remove that row once no node declares it");
			Instant next = Scheduler.nextFireTime(schedule, row.orElse(null), store.explain().now());
			if (store.schedules().defineSchedule(name, schedule.timing(), text, next,
					row.map(ScheduleState::version).orElse(0L))) {
				return row.isEmpty();
			}
		}
		throw new IllegalStateException("schedule '" + name + "' changed under each of " + PUT_ATTEMPTS
				+ " writes of it; nothing was written");
	}

	@Override
	public boolean remove(String name) {
		require(declaredHere(name).isEmpty(), "schedule '" + name + "' is declared in code on this node, which "
				+ "would write it again; remove the declaration, or pause the schedule");
		return store.schedules().removeSchedule(name);
	}

	@Override
	public boolean pause(String name) {
		existing(name);
		return store.schedules().pauseSchedule(name, true);
	}

	@Override
	public boolean resume(String name) {
		existing(name);
		return store.schedules().pauseSchedule(name, false);
	}

	@Override
	public long trigger(String name) {
		ScheduleState row = existing(name);
		Optional<ScheduledJob> job = row.addedAtRuntime() ? added(row)
				: declaredHere(name).map(definition -> ScheduledJobs.resolve(definition, handlers, json, defaultPolicy));
		require(job.isPresent(), row.addedAtRuntime()
				? "schedule '" + name + "' was added by a version of the application whose definition this node "
						+ "cannot read; trigger it from a node of that version"
				: "schedule '" + name + "' is declared by other nodes only, so this node does not know its job; "
						+ "trigger it from one of them");
		NewJob triggered = job.get().triggered(store.explain().now(), keySlots.apply(job.get().schedule().kind()));
		return insert.apply(triggered).id();
	}

	private Optional<ScheduledJob> added(ScheduleState row) {
		try {
			return Optional.of(AddedSchedule.read(json, row.name(), row.definition()));
		}
		catch (RuntimeException ex) {
			return Optional.empty();
		}
	}

	private Optional<ScheduleDefinition> declaredHere(String name) {
		return handlers.schedules().stream().filter(definition -> definition.name().equals(name)).findFirst();
	}

	private Optional<ScheduleState> row(String name) {
		return store.schedules().schedules().stream().filter(row -> row.name().equals(name)).findFirst();
	}

	private ScheduleState existing(String name) {
		return row(name).orElseThrow(() -> new IllegalArgumentException("no schedule '" + name + "'; schedules: "
				+ String.join(", ", store.schedules().schedules().stream().map(ScheduleState::name).toList())));
	}

	private static void require(boolean condition, String problem) {
		if (!condition) {
			throw new IllegalArgumentException(problem);
		}
	}
}
