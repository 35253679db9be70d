package dev.jobqueue.autoconfigure;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import dev.jobqueue.JobQueue;
import dev.jobqueue.ScheduleStatus;
import dev.jobqueue.Schedules;
import dev.jobqueue.WorkerQueues;

/**
 * The {@code jobqueue} endpoint's pause and resume of a queue, a kind or a schedule, its resize of a queue on this
 * node, and its trigger and removal of a schedule: what {@link JobQueue#pause}, its siblings,
 * {@link WorkerQueues#resize} and {@link Schedules} do, answered as the endpoint's other writes are. A request the
 * queue refuses (an unknown scope or action, a name that is no queue name, a queue or schedule unknown here, a size
 * below 1, a resize on a node without workers) is a 400 naming why, and changes nothing.
 */
final class EndpointControls {

	private static final String ACTIONS = "the actions are 'pause' and 'resume', for a queue 'resize' (with "
			+ "'concurrency'), and for a schedule 'trigger' and 'remove'";

	private final JobQueue queue;

	EndpointControls(JobQueue queue) {
		this.queue = queue;
	}

	/** Whether a queue or kind is paused, and since when. */
	WebEndpointResponse<Map<String, Object>> read(String scope, String name) {
		Map<String, Object> answer = new LinkedHashMap<>();
		answer.put("scope", scope);
		answer.put("name", name);
		if (!isScope(scope)) {
			return badRequest(answer, unknownScope(scope));
		}
		Instant pausedAt = pausedOf(scope).get(name);
		answer.put("paused", pausedAt != null);
		answer.put("pausedAt", pausedAt);
		return new WebEndpointResponse<>(answer);
	}

	WebEndpointResponse<Map<String, Object>> act(String scope, String name, String action,
			@Nullable Integer concurrency) {
		Map<String, Object> answer = new LinkedHashMap<>();
		answer.put("scope", scope);
		answer.put("name", name);
		answer.put("action", action);
		if (!isScope(scope)) {
			return badRequest(answer, unknownScope(scope));
		}
		if ("resize".equals(action) && scope.equals("queue")) {
			return resize(answer, name, concurrency);
		}
		if (scope.equals("schedule") && ("trigger".equals(action) || "remove".equals(action))) {
			return schedule(answer, name, action);
		}
		if (!"pause".equals(action) && !"resume".equals(action)) {
			return badRequest(answer, "Unknown action '" + action + "'; " + ACTIONS);
		}
		try {
			answer.put("changed", change(scope, name, action.equals("pause")));
		}
		catch (IllegalArgumentException ex) {
			return badRequest(answer, ex.getMessage());
		}
		answer.put("paused", pausedOf(scope).containsKey(name));
		return new WebEndpointResponse<>(answer);
	}

	/** This node's resize of the queue: the other nodes keep their sizes. */
	private WebEndpointResponse<Map<String, Object>> resize(Map<String, Object> answer, String name,
			@Nullable Integer concurrency) {
		if (concurrency == null) {
			return badRequest(answer, "A resize needs 'concurrency', the number of the queue's jobs this node is to "
					+ "run at once");
		}
		try {
			queue.queues().resize(name, concurrency);
		}
		catch (IllegalArgumentException | IllegalStateException ex) {
			return badRequest(answer, ex.getMessage());
		}
		answer.put("concurrency", queue.queues().concurrency().get(name));
		return new WebEndpointResponse<>(answer);
	}

	/** A trigger answers its job's id; a removal whether there was a schedule to remove. */
	private WebEndpointResponse<Map<String, Object>> schedule(Map<String, Object> answer, String name,
			String action) {
		try {
			if (action.equals("trigger")) {
				answer.put("id", queue.schedules().trigger(name));
			}
			else {
				answer.put("changed", queue.schedules().remove(name));
			}
		}
		catch (IllegalArgumentException ex) {
			return badRequest(answer, ex.getMessage());
		}
		return new WebEndpointResponse<>(answer);
	}

	private Map<String, Instant> pausedOf(String scope) {
		return switch (scope) {
			case "queue" -> queue.pausedQueues();
			case "kind" -> queue.pausedKinds();
			default -> pausedSchedules();
		};
	}

	private Map<String, Instant> pausedSchedules() {
		Map<String, Instant> paused = new LinkedHashMap<>();
		queue.schedules().list().stream().filter(ScheduleStatus::paused)
			.forEach(status -> paused.put(status.name(), status.pausedAt()));
		return paused;
	}

	private static boolean isScope(String scope) {
		return scope.equals("queue") || scope.equals("kind") || scope.equals("schedule");
	}

	private static String unknownScope(String scope) {
		return "Unknown scope '" + scope + "'; the scopes are 'queue', 'kind' and 'schedule'";
	}

	private boolean change(String scope, String name, boolean pause) {
		return switch (scope) {
			case "queue" -> pause ? queue.pause(name) : queue.resume(name);
			case "kind" -> pause ? queue.pauseKind(name) : queue.resumeKind(name);
			default -> pause ? queue.schedules().pause(name) : queue.schedules().resume(name);
		};
	}

	private static WebEndpointResponse<Map<String, Object>> badRequest(Map<String, Object> answer, String error) {
		answer.put("error", error);
		return new WebEndpointResponse<>(answer, WebEndpointResponse.STATUS_BAD_REQUEST);
	}
}
