package dev.jobqueue.autoconfigure;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import dev.jobqueue.Schedule;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.ScheduleDefinition;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The schedules of {@code jobqueue.schedules.<name>} as {@link Schedule}s. Each problem is an
 * {@link IllegalArgumentException} whose message starts with the property at fault, as written in
 * {@code application.yml}; the properties' validator reports it when they are bound.
 */
final class ConfiguredSchedules {

	/** Reads payloads to JSON trees only, which the application's mapper then writes as they are. */
	private static final JsonMapper TREES = JsonMapper.builder().build();

	private ConfiguredSchedules() {
	}

	static void register(Map<String, JobQueueProperties.Schedule> schedules, HandlerRegistry registry) {
		schedules.forEach((name, entry) -> registry
			.registerSchedule(new ScheduleDefinition(name, schedule(name, entry), "jobqueue.schedules." + name)));
	}

	static Schedule schedule(String name, JobQueueProperties.Schedule entry) {
		String property = "jobqueue.schedules." + name;
		check(name != null && name.matches(ScheduleDefinition.NAME_RULE), property,
				"is not a valid schedule name: it must match " + ScheduleDefinition.NAME_RULE);
		check(entry.getKind() != null && !entry.getKind().isBlank(), property + ".kind",
				"must name the kind of the jobs to enqueue");
		check((entry.getCron() == null) != (entry.getEvery() == null), property + ".cron",
				"or " + property + ".every must be set, and not both");
		check(entry.getZone() == null || entry.getCron() != null, property + ".zone",
				"is set without a cron expression");
		Schedule timing = entry.getCron() != null
				? attempt(property + ".cron", () -> Schedule.cron(entry.getCron(), zone(property, entry.getZone())))
				: attempt(property + ".every", () -> Schedule.every(IntervalText.parse(entry.getEvery())));
		Schedule schedule = timing.kind(entry.getKind())
			.payload(payload(property, entry.getPayload()))
			.misfire(entry.getMisfire())
			.fallBack(entry.getFallBack())
			.enabled(entry.isEnabled());
		schedule = with(property + ".misfire-threshold", schedule,
				given -> given.misfireThreshold(entry.getMisfireThreshold()));
		if (entry.getQueue() != null) {
			schedule = with(property + ".queue", schedule, given -> given.queue(entry.getQueue()));
		}
		if (entry.getPriority() != null) {
			schedule = with(property + ".priority", schedule, given -> given.priority(entry.getPriority()));
		}
		return schedule;
	}

	private static ZoneId zone(String property, String zone) {
		if (zone == null) {
			return ZoneOffset.UTC;
		}
		try {
			return ZoneId.of(zone);
		}
		catch (DateTimeException ex) {
			throw new IllegalArgumentException(property + ".zone '" + zone + "' is not a time zone: " + ex.getMessage(),
					ex);
		}
	}

	private static Object payload(String property, String payload) {
		if (payload == null) {
			return null;
		}
		try {
			return TREES.readTree(payload);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException(property + ".payload is not JSON: " + ex.getOriginalMessage(), ex);
		}
	}

	private static Schedule with(String property, Schedule schedule, UnaryOperator<Schedule> change) {
		return attempt(property, () -> change.apply(schedule));
	}

	private static <T> T attempt(String property, Supplier<T> value) {
		try {
			return value.get();
		}
		catch (IllegalArgumentException ex) {
			if (ex.getMessage() != null && ex.getMessage().startsWith("jobqueue.")) {
				throw ex;
			}
			throw new IllegalArgumentException(property + ": " + ex.getMessage(), ex);
		}
	}

	private static void check(boolean condition, String property, String problem) {
		if (!condition) {
			throw new IllegalArgumentException(property + " " + problem);
		}
	}
}
