package dev.jobqueue.autoconfigure;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import dev.jobqueue.Job;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.JobStore;

/**
 * The {@code jobqueue} Actuator endpoint, for whoever is on call: how many jobs each queue holds in each
 * state, one job in full (its last error included), and the two operator actions — send a dead job back
 * to ready, cancel a job that has not started.
 */
@Endpoint(id = "jobqueue")
public final class JobQueueEndpoint {

	private final JobStore store;

	private final JobQueue queue;

	private final ObjectProvider<JobRuntime> runtime;

	JobQueueEndpoint(JobStore store, JobQueue queue, ObjectProvider<JobRuntime> runtime) {
		this.store = store;
		this.queue = queue;
		this.runtime = runtime;
	}

	/** Every queue in the database with its job count per state (zeros included), and this node's worker. */
	@ReadOperation
	public Overview overview() {
		Map<String, Map<JobState, Long>> queues = new TreeMap<>();
		store.countByQueueAndState().forEach((name, counts) -> queues.put(name, withZeros(counts)));
		JobRuntime workers = runtime.getIfAvailable();
		return new Overview(store.vendor(), (workers != null) ? workers.owner() : null, queues);
	}

	/** One job, or 404 when there is none with that id. */
	@ReadOperation
	public Job job(@Selector long id) {
		return queue.find(id).orElse(null);
	}

	/**
	 * {@code retry} sends a dead job back to ready with its attempts reset; {@code cancel} cancels a job
	 * that is ready. Says whether the job was in the state the action needs; any other action is a 400.
	 * A dead job whose unique key a newer unfinished job holds stays dead, and the answer says so under
	 * {@code conflict}, naming that job: the operator's request was understood, the job's state refuses it.
	 */
	@WriteOperation
	public Map<String, Object> act(@Selector long id, String action) {
		Map<String, Object> answer = new LinkedHashMap<>();
		answer.put("id", id);
		answer.put("action", action);
		try {
			answer.put("changed", switch (action) {
				case "retry" -> queue.retry(id);
				case "cancel" -> queue.cancel(id);
				default -> throw new InvalidEndpointRequestException("Unknown action '" + action
						+ "'; the actions are 'retry' (a dead job) and 'cancel' (a ready job)", "Unknown action");
			});
		}
		catch (IllegalStateException ex) {
			answer.put("changed", false);
			answer.put("conflict", ex.getMessage());
		}
		queue.find(id).ifPresent((job) -> answer.put("state", job.state()));
		return answer;
	}

	private static Map<JobState, Long> withZeros(Map<JobState, Long> counts) {
		Map<JobState, Long> all = new EnumMap<>(JobState.class);
		for (JobState state : JobState.values()) {
			all.put(state, counts.getOrDefault(state, 0L));
		}
		return all;
	}

	/**
	 * @param database the queue's database ({@code postgresql}, {@code sqlite})
	 * @param worker the lease owner name of this node's workers, {@code null} on an enqueue-only node
	 * @param queues job counts per queue and state, for the whole database
	 */
	public record Overview(String database, String worker, Map<String, Map<JobState, Long>> queues) {
	}
}
