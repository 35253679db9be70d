package dev.jobqueue.runtime;

import java.util.regex.Pattern;

import dev.jobqueue.Schedule;

/**
 * A schedule as declared: its name, shared by every node that declares it, and who declared it (a
 * property, a handler method, a builder call), for error messages.
 */
public record ScheduleDefinition(String name, Schedule schedule, String description) {

	/** What a schedule name may be: it is a row's key, part of its jobs' unique keys and a metric tag. */
	public static final String NAME_RULE = "[A-Za-z0-9_.-]{1,100}";

	private static final Pattern VALID_NAME = Pattern.compile(NAME_RULE);

	public ScheduleDefinition {
		if (name == null || !VALID_NAME.matcher(name).matches()) {
			throw new IllegalArgumentException(description + ": schedule name must match " + NAME_RULE + ", was '"
					+ name + "'");
		}
		if (schedule == null) {
			throw new IllegalArgumentException(description + ": schedule must not be null");
		}
	}
}
