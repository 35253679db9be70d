package dev.jobqueue.runtime;

import dev.jobqueue.PayloadUpcaster;

/**
 * A registered upcaster: it turns payloads of {@code kind} at version {@code from} into version
 * {@code from + 1}.
 *
 * @param description who declared it (bean and method), for error messages
 */
public record UpcasterDefinition(String kind, int from, PayloadUpcaster upcaster, String description) {

	public UpcasterDefinition {
		if (from < JobHandlerDefinition.FIRST_VERSION) {
			throw new IllegalArgumentException("upcaster " + description + " of kind '" + kind
					+ "' must upcast from version 1 or later, was " + from);
		}
	}

	int to() {
		return from + 1;
	}
}
