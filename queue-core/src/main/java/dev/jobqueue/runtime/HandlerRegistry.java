package dev.jobqueue.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which handler serves which kind. Registering a kind twice fails, naming both declarations. Kinds that
 * handlers of other applications serve can be declared external, so that enqueueing them here is not
 * mistaken for a typo; a node claims only the kinds it serves, so an external kind waits for a node
 * that serves it.
 */
public final class HandlerRegistry {

	private final Map<String, JobHandlerDefinition> byKind = new LinkedHashMap<>();

	private final Set<String> external = new LinkedHashSet<>();

	/** The kinds served here, read at every claim: a copy replaced on registration, never locked to read. */
	private volatile Set<String> served = Set.of();

	public synchronized void register(JobHandlerDefinition definition) {
		JobHandlerDefinition previous = byKind.putIfAbsent(definition.kind(), definition);
		if (previous != null) {
			throw new IllegalStateException("Duplicate job kind '" + definition.kind() + "': declared by "
					+ previous.description() + " and by " + definition.description());
		}
		served = Set.copyOf(byKind.keySet());
	}

	/** Declares a kind that another application handles: it may be enqueued here, it never runs here. */
	public synchronized void declareExternal(String kind) {
		external.add(kind);
	}

	public synchronized Optional<JobHandlerDefinition> handlerFor(String kind) {
		return Optional.ofNullable(byKind.get(kind));
	}

	/** The kinds this node runs, and so the only kinds its claims ask for. */
	public Set<String> servedKinds() {
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
