package dev.jobqueue;

import tools.jackson.databind.JsonNode;

/**
 * Turns a payload of one version of a kind into the next version's, as JSON trees, so that jobs enqueued
 * before a payload type changed still run after the change. Before binding a job's payload, the runtime
 * applies the kind's upcasters in order, from the job's version up to its handler's: a job of version 1
 * whose handler reads version 3 goes through the upcaster from 1, then the one from 2.
 *
 * <pre>{@code
 * // version 2 split "name" into "firstName" and "lastName"
 * PayloadUpcaster splitName = payload -> {
 *     ObjectNode next = ((ObjectNode) payload).deepCopy();
 *     String[] parts = next.remove("name").asString().split(" ", 2);
 *     return next.put("firstName", parts[0]).put("lastName", parts.length > 1 ? parts[1] : "");
 * };
 * }</pre>
 *
 * An upcaster that throws fails the job's attempt, as a handler that throws would; a
 * {@link NonRetryableException} makes the job dead at once.
 */
@FunctionalInterface
public interface PayloadUpcaster {

	/** The payload of the next version, from one of the version this upcaster is declared for. */
	JsonNode upcast(JsonNode payload) throws Exception;
}
