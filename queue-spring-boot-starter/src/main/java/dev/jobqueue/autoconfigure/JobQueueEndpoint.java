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
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import dev.jobqueue.Job;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.ScheduleStatus;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.JobCounts;
import dev.jobqueue.store.JobStore;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code jobqueue} Actuator endpoint, for whoever is on call: how many jobs each queue holds in each
 * state, the paused queues and kinds, the recurring jobs with their last and next fire times, one job (its
 * last error included), and the operator actions — send a dead job back to ready, cancel a job that has not
 * finished, pause or resume a queue or a kind, resize a queue on this node.
 *
 * <p>Read-only unless the application raises its access ({@code management.endpoint.jobqueue.access=
 * unrestricted}): exposing it to see the queue must not also let anyone who reaches it change jobs. A
 * job's payload and result are the application's data (addresses, tokens), so a read leaves them out
 * unless asked for by name, and then shows them as the JSON they are.
 */
@Endpoint(id = "jobqueue", defaultAccess = Access.READ_ONLY)
public final class JobQueueEndpoint {

	/**
	 * How long the overview's counts are reused. Counting reads the whole job table, finished rows
	 * included, so a dashboard that refreshes every second, or several people on call at once, would
	 * otherwise scan it again and again; counts a few seconds old answer an on-call question as well.
	 */
	static final Duration OVERVIEW_CACHE = Duration.ofSeconds(5);

	private static final JsonMapper JSON = JsonMapper.builder()
		.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
		.build();

	private static final Set<String> ACTIONS = Set.of("retry", "cancel");

	/** The parts of a job a read leaves out unless {@code include} names them. */
	private static final Set<String> ON_REQUEST = Set.of("payload", "result");

	private final JobStore store;

	private final JobQueue queue;

	private final ObjectProvider<JobRuntime> runtime;

	private final TimedCache<Map<String, Map<JobState, Long>>> counts;

	private final EndpointControls controls;

	JobQueueEndpoint(JobStore store, JobQueue queue, ObjectProvider<JobRuntime> runtime, Clock clock) {
		this.store = store;
		this.queue = queue;
		this.runtime = runtime;
		this.controls = new EndpointControls(queue);
		this.counts = new TimedCache<>(clock, OVERVIEW_CACHE, this::countAll);
	}

	/**
	 * Every queue in the database with its job count per state (zeros included), at most
	 * {@link #OVERVIEW_CACHE} old, this node's worker and whether it maintains, and the paused queues and
	 * kinds, read at every request (a small table): an operator who just paused one sees it at once.
	 */
	@ReadOperation
	public Overview overview() {
		JobRuntime workers = runtime.getIfAvailable();
		Map<String, Map<JobState, Long>> queues = counts.get();
		return new Overview(store.vendor(), (workers != null) ? workers.owner() : null,
				workers != null && workers.maintaining(), queue.queues().concurrency(), queues, atLeast(queues),
				queue.pausedQueues(), queue.pausedKinds(), queue.schedules().list());
	}

	/** The counts that stopped at the cap, by queue. */
	private static Map<String, List<JobState>> atLeast(Map<String, Map<JobState, Long>> queues) {
		Map<String, List<JobState>> capped = new TreeMap<>();
		queues.forEach((name, byState) -> {
			List<JobState> states = byState.entrySet().stream()
				.filter(count -> JobCounts.atLeast(count.getKey(), count.getValue()))
				.map(Map.Entry::getKey)
				.toList();
			if (!states.isEmpty()) {
				capped.put(name, states);
			}
		});
		return capped;
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
	 * that is ready or running (a running one's handler is interrupted within a heartbeat interval). Says whether the job was in the state the action needs. Any other action is a 400 whose
	 * body names it and the accepted ones, and changes nothing; a job that does not exist is a 404, as for
	 * a read. A dead job whose unique key a newer unfinished job holds stays dead, and the answer says so
	 * under {@code conflict}, naming that job: the operator's request was understood, the job's state
	 * refuses it.
	 */
	@WriteOperation
	public WebEndpointResponse<Map<String, Object>> act(@Selector long id, String action) {
		Map<String, Object> answer = new LinkedHashMap<>();
		answer.put("id", id);
		answer.put("action", action);
		if (!ACTIONS.contains(action)) {
			answer.put("error", "Unknown action '" + action + "'; the actions are 'retry' (a dead job) and "
					+ "'cancel' (a ready or running job)");
			return new WebEndpointResponse<>(answer, WebEndpointResponse.STATUS_BAD_REQUEST);
		}
		if (queue.find(id).isEmpty()) {
			answer.put("error", "No job " + id);
			return new WebEndpointResponse<>(answer, WebEndpointResponse.STATUS_NOT_FOUND);
		}
		try {
			answer.put("changed", action.equals("retry") ? queue.retry(id) : queue.cancel(id));
		}
		catch (IllegalStateException ex) {
			answer.put("changed", false);
			answer.put("conflict", ex.getMessage());
		}
		queue.find(id).ifPresent((job) -> answer.put("state", job.state()));
		return new WebEndpointResponse<>(answer);
	}

	/**
	 * Whether a queue ({@code scope} {@code queue}), a kind ({@code kind}) or a schedule ({@code schedule}) is paused,
	 * and since when; an unknown scope is a 400.
	 */
	@ReadOperation
	public WebEndpointResponse<Map<String, Object>> paused(@Selector String scope, @Selector String name) {
		return controls.read(scope, name);
	}

	/**
	 * Pauses or resumes a queue ({@code scope} {@code queue}), a kind ({@code kind}) or a schedule ({@code schedule})
	 * on every node, with {@code action} {@code pause} or {@code resume}, saying whether that changed its state and
	 * whether it is paused now; resizes a queue on this node, with {@code action} {@code resize} and
	 * {@code concurrency}, answering its new size; triggers a schedule ({@code trigger}), answering its job's id, or
	 * removes an added one ({@code remove}). An unknown scope or action, a name that is no queue name, a queue or
	 * schedule unknown here, or a size this node cannot take is a 400 naming why, and changes nothing.
	 */
	@WriteOperation
	public WebEndpointResponse<Map<String, Object>> control(@Selector String scope, @Selector String name,
			String action, @Nullable Integer concurrency) {
		return controls.act(scope, name, action, concurrency);
	}

	private Map<String, Map<JobState, Long>> countAll() {
		Map<String, Map<JobState, Long>> queues = new TreeMap<>();
		store.telemetry().countByQueueAndState().forEach((name, counts) -> queues.put(name, withZeros(counts)));
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
			if (!ON_REQUEST.contains(name)) {
				fields.put(name, value(component, job));
			}
			else if (included.contains(name)) {
				fields.put(name, asJson((String) value(component, job)));
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

	/**
	 * Stored JSON as the values it holds (maps, lists, strings, numbers), so the answer nests it rather than
	 * quoting it as a string; decimals stay exact.
	 */
	private static @Nullable Object asJson(@Nullable String json) {
		return (json != null) ? JSON.readValue(json, Object.class) : null;
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
	 * @param maintainer whether this node runs the reaper, pruner and vacuum for every node (it holds the
	 * maintenance lease)
	 * @param concurrency the queues this node works, each with how many of its jobs it runs at once; empty on an
	 * enqueue-only node
	 * @param queues job counts per queue and state, for the whole database; a finished state's count stops at
	 * {@link JobCounts#FINISHED_CAP}
	 * @param atLeast by queue, the states whose count stopped at the cap: there are at least that many
	 * @param pausedQueues the paused queues, each with when it was paused
	 * @param pausedKinds the paused kinds, each with when it was paused
	 * @param schedules every recurring job of the cluster, by name, declared and added
	 */
	public record Overview(String database, String worker, boolean maintainer, Map<String, Integer> concurrency,
			Map<String, Map<JobState, Long>> queues, Map<String, List<JobState>> atLeast, Map<String, Instant> pausedQueues,
			Map<String, Instant> pausedKinds, List<ScheduleStatus> schedules) {
	}
}
