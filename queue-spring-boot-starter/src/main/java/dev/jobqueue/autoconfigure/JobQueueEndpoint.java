package dev.jobqueue.autoconfigure;

import java.lang.reflect.RecordComponent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.Access;
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
 * state, the recurring jobs with their last and next fire times, one job (its last error included), and the
 * two operator actions — send a dead job back to ready, cancel a job that has not started.
 *
 * <p>Read-only unless the application raises its access ({@code management.endpoint.jobqueue.access=
 * unrestricted}): exposing it to see the queue must not also let anyone who reaches it change jobs. A
 * job's payload and result are the application's data (addresses, tokens), so a read leaves them out
 * unless asked for by name.
 */
@Endpoint(id = "jobqueue", defaultAccess = Access.READ_ONLY)
public final class JobQueueEndpoint {

	/**
	 * How long the overview's counts are reused. Counting reads the whole job table, finished rows
	 * included, so a dashboard that refreshes every second, or several people on call at once, would
	 * otherwise scan it again and again; counts a few seconds old answer an on-call question as well.
	 */
	static final Duration OVERVIEW_CACHE = Duration.ofSeconds(5);

	/** The parts of a job a read leaves out unless {@code include} names them. */
	private static final Set<String> ON_REQUEST = Set.of("payload", "result");

	private final JobStore store;

	private final JobQueue queue;

	private final ObjectProvider<JobRuntime> runtime;

	private final TimedCache<Map<String, Map<JobState, Long>>> counts;

	JobQueueEndpoint(JobStore store, JobQueue queue, ObjectProvider<JobRuntime> runtime, Clock clock) {
		this.store = store;
		this.queue = queue;
		this.runtime = runtime;
		this.counts = new TimedCache<>(clock, OVERVIEW_CACHE, this::countAll);
	}

	/**
	 * Every queue in the database with its job count per state (zeros included), at most
	 * {@link #OVERVIEW_CACHE} old, and this node's worker.
	 */
	@ReadOperation
	public Overview overview() {
		JobRuntime workers = runtime.getIfAvailable();
		return new Overview(store.vendor(), (workers != null) ? workers.owner() : null, counts.get(), schedules());
	}

	/**
	 * One job, or 404 when there is none with that id; its payload and result only when {@code include}
	 * names them ({@code ?include=payload,result}).
	 */
	@ReadOperation
	public @Nullable Map<String, Object> job(@Selector long id, @Nullable String include) {
		Set<String> included = included(include);
		return queue.find(id).map(job -> fields(job, included)).orElse(null);
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

	/** A small table, one row per schedule: read at every request. */
	private List<ScheduleStatus> schedules() {
		return store.schedules()
			.stream()
			.map(row -> new ScheduleStatus(row.name(), row.timing(), row.lastFireAt(), row.nextFireAt()))
			.toList();
	}

	private Map<String, Map<JobState, Long>> countAll() {
		Map<String, Map<JobState, Long>> queues = new TreeMap<>();
		store.countByQueueAndState().forEach((name, counts) -> queues.put(name, withZeros(counts)));
		return queues;
	}

	private static Set<String> included(@Nullable String include) {
		if (include == null || include.isBlank()) {
			return Set.of();
		}
		Set<String> parts = Set.copyOf(Arrays.stream(include.split(",")).map(String::trim).toList());
		for (String part : parts) {
			if (!ON_REQUEST.contains(part)) {
				throw new InvalidEndpointRequestException("Unknown include '" + part
						+ "'; a read can include 'payload' and 'result'", "Unknown include");
			}
		}
		return parts;
	}

	/** The job's fields in declaration order, those of {@link #ON_REQUEST} only when included. */
	private static Map<String, Object> fields(Job job, Set<String> included) {
		Map<String, Object> fields = new LinkedHashMap<>();
		for (RecordComponent component : Job.class.getRecordComponents()) {
			String name = component.getName();
			if (!ON_REQUEST.contains(name) || included.contains(name)) {
				fields.put(name, value(component, job));
			}
		}
		return fields;
	}

	private static Object value(RecordComponent component, Job job) {
		try {
			return component.getAccessor().invoke(job);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Cannot read " + component.getName() + " of a job", ex);
		}
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
	 * @param schedules every recurring job in the database, by name
	 */
	public record Overview(String database, String worker, Map<String, Map<JobState, Long>> queues,
			List<ScheduleStatus> schedules) {
	}

	/**
	 * One recurring job, as the nodes share it.
	 * @param timing its cron expression and zone, or its interval, as the node that started last declared it
	 * @param lastFireAt the latest fire time enqueued, or {@code null} before the first
	 * @param nextFireAt the next fire time, or {@code null} while disabled; one long past means that no node
	 * declares the schedule any more
	 */
	public record ScheduleStatus(String name, String timing, Instant lastFireAt, Instant nextFireAt) {
	}
}
