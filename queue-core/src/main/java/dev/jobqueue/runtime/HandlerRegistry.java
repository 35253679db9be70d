package dev.jobqueue.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Which handler serves which kind. Registering a kind twice fails, naming both declarations. */
public final class HandlerRegistry {

	private final Map<String, JobHandlerDefinition> byKind = new LinkedHashMap<>();

	public synchronized void register(JobHandlerDefinition definition) {
		JobHandlerDefinition previous = byKind.putIfAbsent(definition.kind(), definition);
		if (previous != null) {
			throw new IllegalStateException("Duplicate job kind '" + definition.kind() + "': declared by "
					+ previous.description() + " and by " + definition.description());
		}
	}

	public synchronized Optional<JobHandlerDefinition> handlerFor(String kind) {
		return Optional.ofNullable(byKind.get(kind));
	}

	public synchronized Collection<JobHandlerDefinition> all() {
		return Collections.unmodifiableCollection(new ArrayList<>(byKind.values()));
	}
}
