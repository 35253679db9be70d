package dev.jobqueue.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method that turns a payload of one version of a kind into the next version's, as JSON
 * trees, so that jobs enqueued before the payload type changed still run. The method takes a
 * {@code tools.jackson.databind.JsonNode} of version {@link #from()} and returns the tree of version
 * {@code from + 1}; before binding an older job's payload, the runtime applies the kind's upcasters in
 * order up to the {@link JobHandler#version()} of its handler.
 *
 * <pre>{@code
 * @JobHandler(kind = "send-mail", version = 3)
 * void send(MailV3 mail) { … }
 *
 * @JobPayloadUpcaster(kind = "send-mail", from = 1)
 * JsonNode addLocale(JsonNode v1) { return ((ObjectNode) v1).deepCopy().put("locale", "en"); }
 *
 * @JobPayloadUpcaster(kind = "send-mail", from = 2)
 * JsonNode renameTo(JsonNode v2) { … }
 * }</pre>
 *
 * Found with the handlers, once every singleton exists. The startup fails, naming bean and method, for an
 * upcaster of a kind no handler here serves, one whose {@code from} is not below its handler's version,
 * two for one kind and version, or a gap in a kind's chain. A chain may start above version 1 once no
 * older job waits; a job older than its start fails dead, its error naming the missing step. What the
 * method throws fails the job's attempt, as a handler's exception would.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface JobPayloadUpcaster {

	/** The job kind whose payloads this method upcasts. Required. */
	String kind();

	/** The payload version this method reads, 1 or more; it returns version {@code from + 1}. */
	int from();
}
