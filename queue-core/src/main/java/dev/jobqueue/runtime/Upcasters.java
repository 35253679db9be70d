package dev.jobqueue.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The upcasters of a registry, by kind and version, and the checks that their chains lead to their
 * handlers. Not thread-safe: {@link HandlerRegistry} guards it.
 */
final class Upcasters {

	private final Map<String, NavigableMap<Integer, UpcasterDefinition>> byKind = new HashMap<>();

	void register(UpcasterDefinition upcaster) {
		UpcasterDefinition previous = byKind.computeIfAbsent(upcaster.kind(), kind -> new TreeMap<>())
			.putIfAbsent(upcaster.from(), upcaster);
		if (previous != null) {
			throw new IllegalStateException("Duplicate upcaster of kind '" + upcaster.kind() + "' from version "
					+ upcaster.from() + ": declared by " + previous.description() + " and by "
					+ upcaster.description());
		}
	}

	Optional<UpcasterDefinition> from(String kind, int version) {
		NavigableMap<Integer, UpcasterDefinition> chain = byKind.get(kind);
		return Optional.ofNullable(chain == null ? null : chain.get(version));
	}

	/**
	 * Fails unless every upcaster serves a kind that has a handler, upcasts from below that handler's
	 * version, and belongs to one unbroken chain up to it. A chain may start above version 1: jobs older
	 * than its start may all be gone, and one that is not fails when it runs, naming the missing step.
	 */
	void verify(Function<String, Optional<JobHandlerDefinition>> handlers) {
		byKind.forEach((kind, chain) -> {
			JobHandlerDefinition handler = handlers.apply(kind)
				.orElseThrow(() -> new IllegalStateException("Upcaster " + chain.firstEntry().getValue().description()
						+ " is declared for kind '" + kind + "', which no handler here serves; declare upcasters "
						+ "beside the handler of their kind"));
			chain.values().forEach(upcaster -> verifyBelow(upcaster, handler));
			verifyUnbroken(chain, handler);
		});
	}

	private static void verifyBelow(UpcasterDefinition upcaster, JobHandlerDefinition handler) {
		if (upcaster.from() >= handler.version()) {
			throw new IllegalStateException("Upcaster " + upcaster.description() + " of kind '" + upcaster.kind()
					+ "' upcasts from version " + upcaster.from() + ", but " + handler.description() + " reads version "
					+ handler.version() + ": an upcaster's version must be below its handler's");
		}
	}

	private static void verifyUnbroken(NavigableMap<Integer, UpcasterDefinition> chain, JobHandlerDefinition handler) {
		List<String> missing = new ArrayList<>();
		for (int version = chain.firstKey(); version < handler.version(); version++) {
			if (!chain.containsKey(version)) {
				missing.add(Integer.toString(version));
			}
		}
		if (!missing.isEmpty()) {
			List<String> declared = new ArrayList<>();
			chain.forEach((from, upcaster) -> declared.add("from " + from + " by " + upcaster.description()));
			throw new IllegalStateException("Upcasters of kind '" + handler.kind() + "' leave a gap on the way to "
					+ "version " + handler.version() + " of " + handler.description() + ": no upcaster from version "
					+ String.join(", ", missing) + " is declared (declared: " + String.join("; ", declared)
					+ "); declare one from each missing version");
		}
	}
}
