package dev.jobqueue.autoconfigure;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import dev.jobqueue.JobQueue;

/**
 * The {@code jobqueue} endpoint's pause and resume of a queue or a kind: what {@link JobQueue#pause} and its
 * siblings do, answered as the endpoint's other writes are. A request the queue refuses (an unknown scope or
 * action, a name that is no queue name, a queue unknown here) is a 400 naming why, and writes nothing.
 */
final class EndpointPauses {

	private static final String ACTIONS = "the actions are 'pause' and 'resume'";

	private final JobQueue queue;

	EndpointPauses(JobQueue queue) {
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

	WebEndpointResponse<Map<String, Object>> act(String scope, String name, String action) {
		Map<String, Object> answer = new LinkedHashMap<>();
		answer.put("scope", scope);
		answer.put("name", name);
		answer.put("action", action);
		if (!isScope(scope)) {
			return badRequest(answer, unknownScope(scope));
		}
		if (!"pause".equals(action) && !"resume".equals(action)) {
			return badRequest(answer, "Unknown action '" + action + "'; " + ACTIONS);
		}
		try {
			answer.put("changed", change(scope.equals("queue"), name, action.equals("pause")));
		}
		catch (IllegalArgumentException ex) {
			return badRequest(answer, ex.getMessage());
		}
		answer.put("paused", pausedOf(scope).containsKey(name));
		return new WebEndpointResponse<>(answer);
	}

	private Map<String, Instant> pausedOf(String scope) {
		return scope.equals("queue") ? queue.pausedQueues() : queue.pausedKinds();
	}

	private static boolean isScope(String scope) {
		return scope.equals("queue") || scope.equals("kind");
	}

	private static String unknownScope(String scope) {
		return "Unknown scope '" + scope + "'; the scopes are 'queue' and 'kind'";
	}

	private boolean change(boolean ofQueue, String name, boolean pause) {
		if (ofQueue) {
			return pause ? queue.pause(name) : queue.resume(name);
		}
		return pause ? queue.pauseKind(name) : queue.resumeKind(name);
	}

	private static WebEndpointResponse<Map<String, Object>> badRequest(Map<String, Object> answer, String error) {
		answer.put("error", error);
		return new WebEndpointResponse<>(answer, WebEndpointResponse.STATUS_BAD_REQUEST);
	}
}
