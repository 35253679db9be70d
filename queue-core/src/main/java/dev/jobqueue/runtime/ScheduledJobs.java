package dev.jobqueue.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.jobqueue.RetryPolicy;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.Schedule;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks the registered schedules against the handlers: each names a kind a handler here serves (or one
 * declared external), and its payload binds to that handler's payload type. A failure names the schedule's
 * declaration (the property or the method), before anything starts.
 */
public final class ScheduledJobs {

	private ScheduledJobs() {
	}

	/** The registered schedules, resolved; fails on the first that does not fit. */
	public static List<ScheduledJob> resolve(HandlerRegistry handlers, JsonMapper json, RetryPolicy defaultPolicy) {
		List<ScheduledJob> resolved = new ArrayList<>();
		for (ScheduleDefinition definition : handlers.schedules()) {
			resolved.add(resolve(definition, handlers, json, defaultPolicy));
		}
		return resolved;
	}

	/** One schedule, resolved; fails when it does not fit. */
	static ScheduledJob resolve(ScheduleDefinition definition, HandlerRegistry handlers, JsonMapper json,
			RetryPolicy defaultPolicy) {
		Schedule schedule = definition.schedule();
		if (schedule.kind() == null) {
			throw invalid(definition, "names no kind");
		}
		Optional<JobHandlerDefinition> handler = handlers.handlerFor(schedule.kind());
		if (handler.isEmpty() && !handlers.isExternal(schedule.kind())) {
			throw invalid(definition, "names kind '" + schedule.kind() + "', which no handler here serves (kinds: "
					+ String.join(", ", handlers.acceptedKinds()) + "); declare kinds that other applications handle "
					+ "as external kinds");
		}
		String payload = payload(definition, json, handler);
		String queue = schedule.queue() != null ? schedule.queue()
				: handler.map(JobHandlerDefinition::queue).orElse(RuntimeSettings.DEFAULT_QUEUE);
		RetryPolicy policy = handler.map(JobHandlerDefinition::retryPolicy).orElse(null);
		return new ScheduledJob(definition.name(), schedule, queue, payload,
				handler.map(JobHandlerDefinition::version).orElse(JobHandlerDefinition.FIRST_VERSION),
				(policy != null ? policy : defaultPolicy).maxAttempts());
	}

	/** The payload as JSON, read back as the handler's payload type, so that a job never fails to bind. */
	private static String payload(ScheduleDefinition definition, JsonMapper json,
			Optional<JobHandlerDefinition> handler) {
		String text;
		try {
			text = json.writeValueAsString(definition.schedule().payload());
		}
		catch (JacksonException ex) {
			throw invalid(definition, "has a payload that cannot be written as JSON: " + ex.getOriginalMessage());
		}
		handler.ifPresent(target -> {
			// Void reads nothing but null: a handler that declares it takes no payload at all.
			if (definition.schedule().payload() == null && !target.payloadNullable()
					&& target.payloadType() != Void.class) {
				throw invalid(definition, "has no payload, but " + target.description() + " reads a "
						+ target.payloadType().getTypeName() + " that is not declared nullable, as an enqueue of null "
						+ "would be refused: give the schedule a payload, or declare the parameter @Nullable");
			}
			try {
				json.readValue(text, json.constructType(target.payloadType()));
			}
			catch (JacksonException ex) {
				throw invalid(definition, "has a payload that does not fit " + target.description() + ": "
						+ ex.getOriginalMessage());
			}
		});
		return text;
	}

	private static IllegalStateException invalid(ScheduleDefinition definition, String problem) {
		return new IllegalStateException("Schedule '" + definition.name() + "' (" + definition.description() + ") "
				+ problem);
	}
}
