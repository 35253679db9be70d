package dev.jobqueue.runtime;

import java.time.Duration;
import java.time.ZoneId;

import dev.jobqueue.Schedule;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A schedule added at runtime as its row keeps it: the whole {@link ScheduledJob}, resolved once by the node that
 * added it, as JSON. Every node fires it from the row alone, whatever handlers it has, so the nodes of a cluster never
 * disagree on what it enqueues.
 */
final class AddedSchedule {

	private AddedSchedule() {
	}

	/** The row's {@code definition} of {@code job}. */
	static String write(JsonMapper json, ScheduledJob job) {
		Schedule schedule = job.schedule();
		ObjectNode node = json.createObjectNode();
		if (schedule.every() != null) {
			node.put("every", schedule.every().toString());
		}
		else {
			node.put("cron", schedule.cron()).put("zone", schedule.zone().getId());
		}
		node.put("fallBack", schedule.fallBack().name())
			.put("enabled", schedule.enabled())
			.put("misfire", schedule.misfire().name())
			.put("misfireThreshold", schedule.misfireThreshold().toString())
			.put("kind", schedule.kind())
			.put("queue", job.queue())
			.put("priority", schedule.priority())
			.put("payloadVersion", job.payloadVersion())
			.put("maxAttempts", job.maxAttempts());
		node.set("payload", json.readTree(job.payload()));
		return json.writeValueAsString(node);
	}

	/**
	 * The job of the row named {@code name} whose definition is {@code definition}.
	 *
	 * @throws IllegalArgumentException when the definition is not one {@link #write} wrote
	 */
	static ScheduledJob read(JsonMapper json, String name, String definition) {
		JsonNode node = json.readTree(definition);
		Schedule schedule = node.hasNonNull("every") ? Schedule.every(Duration.parse(text(node, "every")))
				: Schedule.cron(text(node, "cron"), ZoneId.of(text(node, "zone")));
		schedule = schedule.fallBack(Schedule.FallBack.valueOf(text(node, "fallBack")))
			.enabled(field(node, "enabled").asBoolean())
			.misfire(Schedule.Misfire.valueOf(text(node, "misfire")))
			.misfireThreshold(Duration.parse(text(node, "misfireThreshold")))
			.kind(text(node, "kind"))
			.queue(text(node, "queue"))
			.priority(field(node, "priority").asInt())
			.payload(field(node, "payload"));
		return new ScheduledJob(name, schedule, schedule.queue(), json.writeValueAsString(field(node, "payload")),
				field(node, "payloadVersion").asInt(), field(node, "maxAttempts").asInt());
	}

	private static String text(JsonNode node, String field) {
		return field(node, field).asString();
	}

	private static JsonNode field(JsonNode node, String field) {
		JsonNode value = node.get(field);
		if (value == null) {
			throw new IllegalArgumentException("the definition of an added schedule has no '" + field + "'");
		}
		return value;
	}
}
