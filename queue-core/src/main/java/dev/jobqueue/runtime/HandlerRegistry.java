package dev.jobqueue.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which handler serves which kind, and which upcasters bring older payloads of a kind up to its handler's
 * version. Registering a kind twice fails, naming both declarations. Kinds that handlers of other
 * applications serve can be declared external, so that enqueueing them here is not mistaken for a typo; a
 * node claims only the kinds it serves, up to its handlers' payload versions, so an external kind, or a
 * payload newer than this node reads, waits for a node that serves it.
 */
public final class HandlerRegistry {

	private final Map<String, JobHandlerDefinition> byKind = new LinkedHashMap<>();

	private final Set<String> external = new LinkedHashSet<>();

	private final Upcasters upcasters = new Upcasters();

	private final Map<String, ScheduleDefinition> schedules = new LinkedHashMap<>();

	/**
	 * The kinds served here and the newest payload version of each, read at every claim: a copy replaced on
	 * registration, never locked to read.
	 */
	private volatile Map<String, Integer> served = Map.of();

	public synchronized void register(JobHandlerDefinition definition) {
		JobHandlerDefinition previous = byKind.putIfAbsent(definition.kind(), definition);
		if (previous != null) {
			throw new IllegalStateException("Duplicate job kind '" + definition.kind() + "': declared by "
					+ previous.description() + " and by " + definition.description());
		}
		Map<String, Integer> versions = new LinkedHashMap<>(served);
		versions.put(definition.kind(), definition.version());
		served = Map.copyOf(versions);
	}

	/** Fails when an upcaster of the same kind and version is registered already, naming both. */
	public synchronized void registerUpcaster(UpcasterDefinition upcaster) {
		upcasters.register(upcaster);
	}

	/**
	 * Fails, naming the upcaster, when one serves a kind without a handler here, upcasts from a version not
	 * below its handler's, or leaves a gap in its kind's chain. Call once every handler and upcaster is
	 * registered.
	 */
	public synchronized void verifyUpcasters() {
		upcasters.verify(kind -> Optional.ofNullable(byKind.get(kind)));
	}

	/** The upcaster of {@code kind} from {@code version} to the next, if one is registered. */
	public synchronized Optional<UpcasterDefinition> upcasterFrom(String kind, int version) {
		return upcasters.from(kind, version);
	}

	/**
	 * Registers a recurring job; fails when another schedule has its name, naming both. Checked against the
	 * handlers by {@link ScheduledJobs#resolve} once all are registered.
	 */
	public synchronized void registerSchedule(ScheduleDefinition schedule) {
		ScheduleDefinition previous = schedules.putIfAbsent(schedule.name(), schedule);
		if (previous != null) {
			throw new IllegalStateException("Duplicate schedule '" + schedule.name() + "': declared by "
					+ previous.description() + " and by " + schedule.description());
		}
	}

	public synchronized Collection<ScheduleDefinition> schedules() {
		return List.copyOf(schedules.values());
	}

	/** Whether {@code kind} was declared as handled by another application. */
	public synchronized boolean isExternal(String kind) {
		return external.contains(kind);
	}

	/** Declares a kind that another application handles: it may be enqueued here, it never runs here. */
	public synchronized void declareExternal(String kind) {
		external.add(kind);
	}

	public synchronized Optional<JobHandlerDefinition> handlerFor(String kind) {
		return Optional.ofNullable(byKind.get(kind));
	}

	/**
	 * The kinds this node runs, and so the only kinds its claims ask for, each with the newest payload
	 * version its handler reads: claims pass over newer ones.
	 */
	public Map<String, Integer> servedVersions() {
		return served;
	}

	/**
	 * Whether a job of {@code kind} may be enqueued here: a handler serves it, it was declared external,
	 * or this application has no handlers at all (it only enqueues, for others to run).
	 */
	public synchronized boolean accepts(String kind) {
		return byKind.isEmpty() || byKind.containsKey(kind) || external.contains(kind);
	}

	/** The kinds that may be enqueued here, sorted, for messages. */
	public synchronized Set<String> acceptedKinds() {
		Set<String> kinds = new TreeSet<>(byKind.keySet());
		kinds.addAll(external);
		return kinds;
	}

	public synchronized Collection<JobHandlerDefinition> all() {
		return Collections.unmodifiableCollection(new ArrayList<>(byKind.values()));
	}
}
