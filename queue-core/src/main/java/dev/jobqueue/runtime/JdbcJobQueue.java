package dev.jobqueue.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import dev.jobqueue.Batch;
import dev.jobqueue.BatchCounts;
import dev.jobqueue.DependencyFailure;
import dev.jobqueue.DuplicateJobException;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.EnqueueResult;
import dev.jobqueue.EnqueuedBatch;
import dev.jobqueue.Job;
import dev.jobqueue.JobExplanation;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobLog;
import dev.jobqueue.JobPage;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.JobTracing;
import dev.jobqueue.Node;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.Schedules;
import dev.jobqueue.WorkerQueues;
import dev.jobqueue.Workflow;
import dev.jobqueue.store.BatchStore;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.PauseScope;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link JobQueue} over a {@link JobStore}. Options left open take the kind's handler's
 * declaration (queue, max attempts, payload version) when this node knows the kind, else the defaults.
 * Every check happens before any SQL is sent, so a rejected enqueue leaves the caller's transaction usable.
 */
public final class JdbcJobQueue implements JobQueue {

	private final JobStore store;

	private final JsonMapper json;

	private final NewJobs newJobs;

	private final JobListener listener;

	private final Consumer<String> wakeup;

	private final JobAwaiter awaiter;

	private final QueuePauses pauses;

	private final KeyPromoter promoter;

	private final DependencyPromoter dependencies;

	private final JobExplainer explainer;

	private final JobSearch search;

	private final BulkOperations bulk;

	private final TraceContexts traces;

	private final Supplier<WorkerQueues> workerQueues;

	private final RuntimeSchedules schedules;

	/**
	 * A queue whose {@link #await} looks at every poll interval.
	 *
	 * @param wakeup told the queue name once a job is committed, so that a local poller can start it
	 * without waiting for its next poll
	 */
	public JdbcJobQueue(JobStore store, JsonMapper json, HandlerRegistry handlers, RuntimeSettings settings,
			JobListener listener, Consumer<String> wakeup) {
		this(store, json, handlers, settings, listener, wakeup, new JobAwaiter(store.reads(), null, settings.pollInterval()));
	}

	/** @param awaiter what {@link #await} waits with; closed with this queue */
	public JdbcJobQueue(JobStore store, JsonMapper json, HandlerRegistry handlers, RuntimeSettings settings,
			JobListener listener, Consumer<String> wakeup, JobAwaiter awaiter) {
		this(store, json, handlers, settings, listener, JobTracing.NONE, wakeup, awaiter);
	}

	/** @param tracing opens each enqueue's span, whose trace context is stored with the job(s) */
	public JdbcJobQueue(JobStore store, JsonMapper json, HandlerRegistry handlers, RuntimeSettings settings,
			JobListener listener, JobTracing tracing, Consumer<String> wakeup, JobAwaiter awaiter) {
		this(store, json, handlers, settings, listener, tracing, wakeup, () -> WorkerQueues.NONE, awaiter);
	}

	/**
	 * A queue of a node that may run workers.
	 *
	 * @param localRuntime this node's runtime, or null when it runs none (asked at each use: the runtime may be
	 * built after the queue): it is woken for each committed job, and its queues are {@link #queues()}
	 */
	public JdbcJobQueue(JobStore store, JsonMapper json, HandlerRegistry handlers, RuntimeSettings settings,
			JobListener listener, JobTracing tracing, Supplier<JobRuntime> localRuntime, JobAwaiter awaiter) {
		this(store, json, handlers, settings, listener, tracing, queue -> {
			JobRuntime local = localRuntime.get();
			if (local != null) {
				local.wake(queue);
			}
		}, () -> {
			JobRuntime local = localRuntime.get();
			return local != null ? local.queues() : WorkerQueues.NONE;
		}, awaiter);
	}

	private JdbcJobQueue(JobStore store, JsonMapper json, HandlerRegistry handlers, RuntimeSettings settings,
			JobListener listener, JobTracing tracing, Consumer<String> wakeup, Supplier<WorkerQueues> workerQueues,
			JobAwaiter awaiter) {
		this.workerQueues = workerQueues;
		this.traces = new TraceContexts(tracing);
		this.awaiter = awaiter;
		this.store = store;
		this.json = json;
		this.listener = listener;
		this.wakeup = wakeup;
		this.pauses = new QueuePauses(store, handlers, settings.queues().keySet(), this::afterCommit);
		this.promoter = new KeyPromoter(store.promotions(), wakeup);
		this.dependencies = new DependencyPromoter(store.dependencies(), store.batches(), wakeup,
				promoter::promoteAfterCommit);
		KindLimits kindLimits = new KindLimits(store.nodes(), settings.concurrencyKeyLimits());
		this.newJobs = new NewJobs(handlers, json, settings, kindLimits);
		this.explainer = new JobExplainer(store);
		this.search = new JobSearch(store.reads());
		this.bulk = new BulkOperations(store, promoter, this::afterCommit);
		this.schedules = new RuntimeSchedules(store, handlers, json, settings.retryPolicy(),
				kind -> kindLimits.keySlot(kind, null, handlers.handlerFor(kind)), this::insert);
	}

	/**
	 * The mapper payloads are written with: the one the runtime reads them with as well, so test support
	 * (queue-test) binds enqueued payloads and runs jobs inline with it.
	 */
	public JsonMapper payloadMapper() {
		return json;
	}

	@Override
	public long enqueue(String kind, Object payload, EnqueueOptions options) {
		NewJob job = newJobs.of(kind, payload, options);
		EnqueueResult result = insert(job);
		if (result.duplicate()) {
			throw new DuplicateJobException(job.kind(), job.uniqueKey(), result.id());
		}
		return result.id();
	}

	@Override
	public EnqueueResult enqueueUnique(String kind, Object payload, EnqueueOptions options) {
		require(options != null && options.unique() != null,
				() -> "enqueueUnique needs options with a unique key (uniqueKey or unique); without one every "
						+ "enqueue inserts, use enqueue");
		return insert(newJobs.of(kind, payload, options));
	}

	/**
	 * A duplicate writes nothing, so it is neither counted nor worth a wakeup. A job that runs after others is settled
	 * once the enqueue commits: they may have finished already.
	 */
	private EnqueueResult insert(NewJob job) {
		EnqueueResult result = traces.enqueue(job.queue(), job.kind(), 1,
				context -> job.dependencies().waits() ? store.dependencies().enqueue(job.withTraceContext(context))
						: store.enqueues().enqueue(job.withTraceContext(context)));
		if (result.inserted()) {
			listener.onEnqueued(job.queue(), job.kind());
			if (job.dependencies().waits()) {
				dependencies.settleAfterCommit(List.of(result.id()));
			}
			else if (job.keySlot() == null) {
				afterCommit(job.queue());
			}
			else {
				promoter.promoteAfterCommit(List.of(job.keySlot().key()));
			}
		}
		return result;
	}

	/**
	 * Looks each kind up once per call rather than once per job, and wakes each queue once: a wakeup
	 * only starts a poll, which finds all of the queue's new jobs.
	 */
	@Override
	public List<Long> enqueueAll(List<NewJobRequest> requests) {
		List<NewJob> jobs = newJobs.ofAll(requests, "enqueueAll");
		if (jobs.stream().allMatch(job -> job.uniqueKey() == null)) {
			return insertAll(jobs, this::write).stream().map(EnqueueResult::id).toList();
		}
		// A duplicate undoes the jobs written before it: the check runs inside the batch's own savepoint.
		return insertAll(jobs, unwritten -> store.dependencies().inOneTransaction(() -> {
			List<EnqueueResult> results = write(unwritten);
			for (int i = 0; i < results.size(); i++) {
				if (results.get(i).duplicate()) {
					throw new DuplicateJobException(unwritten.get(i).kind(), unwritten.get(i).uniqueKey(),
							results.get(i).id());
				}
			}
			return results;
		})).stream().map(EnqueueResult::id).toList();
	}

	@Override
	public List<EnqueueResult> enqueueAllUnique(List<NewJobRequest> requests) {
		return insertAll(newJobs.ofAll(requests, "enqueueAllUnique"), this::write);
	}

	private List<EnqueueResult> write(List<NewJob> jobs) {
		return traces.enqueue(common(jobs, NewJob::queue), common(jobs, NewJob::kind), jobs.size(),
				context -> store.enqueues().enqueueAll(withTraceContext(jobs, context)));
	}

	/**
	 * Writes the jobs together through {@code writer}; counts what it inserted and wakes each queue once, as
	 * {@link #insert} does for one job, only once it has returned.
	 */
	private List<EnqueueResult> insertAll(List<NewJob> jobs, Function<List<NewJob>, List<EnqueueResult>> writer) {
		List<EnqueueResult> results = writer.apply(jobs);
		Set<String> queues = new LinkedHashSet<>();
		Set<String> keys = new LinkedHashSet<>();
		for (int i = 0; i < jobs.size(); i++) {
			NewJob job = jobs.get(i);
			if (results.get(i).inserted()) {
				listener.onEnqueued(job.queue(), job.kind());
				if (job.keySlot() == null) {
					queues.add(job.queue());
				}
				else {
					keys.add(job.keySlot().key());
				}
			}
		}
		queues.forEach(this::afterCommit);
		promoter.promoteAfterCommit(keys);
		return results;
	}

	@Override
	public Optional<Job> find(long id) {
		return store.reads().find(id);
	}

	@Override
	public <T> Optional<T> result(long id, Class<T> type) {
		require(type != null, () -> "type must not be null");
		return store.reads().find(id).filter(job -> job.state() == JobState.succeeded && job.result() != null)
			.map(job -> readResult(job, type));
	}

	private <T> T readResult(Job job, Class<T> type) {
		return JobResults.read(json, job, type);
	}

	/**
	 * A cancelled job of a concurrency key frees its slot, or leaves the line of the key's blocked jobs; the jobs
	 * and the batch that wait for it are settled once the cancel commits.
	 */
	@Override
	public boolean cancel(long id) {
		if (!store.writes().cancel(id)) {
			return false;
		}
		store.reads().find(id).map(Job::concurrencyKey).ifPresent(key -> promoter.promoteAfterCommit(List.of(key)));
		dependencies.finishedAfterCommit(id);
		return true;
	}

	@Override
	public Job await(long id, Duration timeout) {
		return awaiter.await(id, timeout);
	}

	/** Stops what {@link #await} started, its listening connection and its thread, and the promoters' threads. */
	public void close() {
		awaiter.close();
		promoter.close();
		dependencies.close();
	}

	@Override
	public Workflow workflow() {
		return new WorkflowBuilder(this::enqueueWorkflow);
	}

	/** Each job with the ids of the workflow's jobs it runs after, written before it, all in one transaction. */
	private Map<String, Long> enqueueWorkflow(List<WorkflowBuilder.Member> members, DependencyFailure policy) {
		return store.dependencies().inOneTransaction(() -> {
			Map<String, Long> ids = new HashMap<>();
			for (WorkflowBuilder.Member member : members) {
				NewJob job = newJobs.of(member.kind(), member.payload(), member.options());
				ids.put(member.name(), insert(job.withDependencies(new NewJob.Dependencies(
						WorkflowBuilder.dependencyIds(member, ids::get), policy == DependencyFailure.CANCEL,
						member.hasDependents()))).id());
			}
			return ids;
		});
	}

	@Override
	public Batch batch() {
		return new BatchBuilder(this::enqueueBatch);
	}

	/**
	 * The callbacks first, waiting, then the batch's row, its jobs and the rows naming each job's role in it, all in
	 * one transaction. The jobs are written {@code has_dependents}, so that the worker that ends one settles the batch.
	 */
	private EnqueuedBatch enqueueBatch(BatchBuilder.Plan plan) {
		List<NewJob> jobs = plan.jobs().stream()
			.map(entry -> newJob(entry).withDependencies(new NewJob.Dependencies(List.of(), true, true)))
			.toList();
		Optional<NewJob> onFinish = Optional.ofNullable(plan.onFinish()).map(this::newJob);
		Optional<NewJob> onFailure = Optional.ofNullable(plan.onFailure()).map(this::newJob);
		BatchStore batches = store.batches();
		return batches.inOneTransaction(() -> {
			Optional<Long> onFinishId = onFinish.map(this::insertCallback);
			Optional<Long> onFailureId = onFailure.map(this::insertCallback);
			long batchId = batches.create(jobs.size());
			List<Long> ids = insertAll(jobs, this::write).stream().map(EnqueueResult::id).toList();
			batches.add(batchId, BatchStore.Role.member, ids);
			onFinishId.ifPresent(id -> batches.add(batchId, BatchStore.Role.on_finish, List.of(id)));
			onFailureId.ifPresent(id -> batches.add(batchId, BatchStore.Role.on_failure, List.of(id)));
			return new EnqueuedBatch(batchId, ids, onFinishId, onFailureId);
		});
	}

	private NewJob newJob(BatchBuilder.Entry entry) {
		return newJobs.of(entry.kind(), entry.payload(), entry.options());
	}

	private long insertCallback(NewJob callback) {
		return insert(callback.withDependencies(NewJob.Dependencies.BATCH_CALLBACK)).id();
	}

	@Override
	public Optional<BatchCounts> batchCounts(long batchId) {
		return store.batches().counts(batchId);
	}

	/** A retried job of a concurrency key is blocked again, and waits for its turn like a new one. */
	private void afterRetry(Job job) {
		if (job.concurrencyKey() == null) {
			afterCommit(job.queue());
		}
		else {
			promoter.promoteAfterCommit(List.of(job.concurrencyKey()));
		}
	}

	@Override
	public boolean retry(long id) {
		if (store.writes().retryDead(id)) {
			store.reads().find(id).ifPresent(this::afterRetry);
			return true;
		}
		store.reads().holderOfUniqueKey(id).ifPresent(holder -> {
			throw new IllegalStateException("job " + id + " stays dead: its unique key is held by job "
					+ holder + "; retry it once that job no longer holds it");
		});
		return false;
	}

	@Override
	public JobPage search(JobQuery query, String cursor) {
		return search.search(query, cursor);
	}

	@Override
	public Map<String, Map<JobState, Long>> countByQueueAndState() {
		return store.telemetry().countByQueueAndState();
	}

	@Override
	public long retryAll(JobQuery query) {
		return bulk.retryAll(query);
	}

	@Override
	public long retryAll(Collection<Long> ids) {
		return bulk.retryAll(ids);
	}

	@Override
	public long cancelAll(JobQuery query) {
		return bulk.cancelAll(query);
	}

	@Override
	public long cancelAll(Collection<Long> ids) {
		return bulk.cancelAll(ids);
	}

	@Override
	public long deleteFinished(JobQuery query) {
		return bulk.deleteFinished(query);
	}

	@Override
	public boolean pause(String queue) {
		return pauses.pause(queue);
	}

	@Override
	public boolean resume(String queue) {
		return pauses.resume(queue);
	}

	@Override
	public boolean pauseKind(String kind) {
		return pauses.pauseKind(kind);
	}

	@Override
	public boolean resumeKind(String kind) {
		return pauses.resumeKind(kind);
	}

	@Override
	public Map<String, Instant> pausedQueues() {
		return pauses.paused(PauseScope.queue);
	}

	@Override
	public Map<String, Instant> pausedKinds() {
		return pauses.paused(PauseScope.kind);
	}

	@Override
	public JobExplanation explain(long id) {
		return explainer.explain(id);
	}

	@Override
	public JobLog log(long id) {
		return JobNotes.read(json, store.steps().notes(id));
	}

	@Override
	public Schedules schedules() {
		return schedules;
	}

	@Override
	public WorkerQueues queues() {
		return workerQueues.get();
	}

	@Override
	public List<Node> nodes() {
		return store.nodes().liveNodes();
	}

	/** What every job of a batch has in common, or {@code "mixed"}: a bounded value for a tag. */
	private static String common(List<NewJob> jobs, Function<NewJob, String> value) {
		Set<String> values = jobs.stream().map(value).collect(Collectors.toSet());
		return values.size() == 1 ? values.iterator().next() : TraceContexts.MIXED;
	}

	/** Untraced, the batch is written as it is, not copied job by job. */
	private static List<NewJob> withTraceContext(List<NewJob> jobs, String context) {
		return context == null ? jobs : jobs.stream().map(job -> job.withTraceContext(context)).toList();
	}

	/** Wakes the queue's poller once the job is visible: after the caller's commit, or now without one. */
	private void afterCommit(String queue) {
		AfterCommit.run(() -> wakeup.accept(queue));
	}

	private static void require(boolean condition, Supplier<String> problem) {
		if (!condition) {
			throw new IllegalArgumentException(problem.get());
		}
	}
}
