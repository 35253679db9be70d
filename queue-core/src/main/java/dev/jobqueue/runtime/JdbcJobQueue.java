package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link JobQueue} over a {@link JobStore}. Options left open take the kind's handler's
 * declaration (queue, max attempts, payload version) when this node knows the kind, else the defaults.
 * Every check happens before any SQL is sent, so a rejected enqueue leaves the caller's transaction usable.
 */
public final class JdbcJobQueue implements JobQueue {

	private final JobStore store;

	private final JsonMapper json;

	private final HandlerRegistry handlers;

	private final RetryPolicy defaultRetryPolicy;

	private final int maxPayloadLength;

	private final JobListener listener;

	private final Consumer<String> wakeup;

	private final JobAwaiter awaiter;

	/**
	 * A queue whose {@link #await} looks at every poll interval.
	 *
	 * @param wakeup told the queue name once a job is committed, so that a local poller can start it
	 * without waiting for its next poll
	 */
	public JdbcJobQueue(JobStore store, JsonMapper json, HandlerRegistry handlers, RuntimeSettings settings,
			JobListener listener, Consumer<String> wakeup) {
		this(store, json, handlers, settings, listener, wakeup, new JobAwaiter(store, null, settings.pollInterval()));
	}

	/** @param awaiter what {@link #await} waits with; closed with this queue */
	public JdbcJobQueue(JobStore store, JsonMapper json, HandlerRegistry handlers, RuntimeSettings settings,
			JobListener listener, Consumer<String> wakeup, JobAwaiter awaiter) {
		this.awaiter = awaiter;
		this.store = store;
		this.json = json;
		this.handlers = handlers;
		this.defaultRetryPolicy = settings.retryPolicy();
		this.maxPayloadLength = settings.maxPayloadLength();
		this.listener = listener;
		this.wakeup = wakeup;
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
		NewJob job = newJob(kind, payload, options, this::acceptedHandler);
		long id = store.enqueue(job);
		listener.onEnqueued(job.queue(), job.kind());
		afterCommit(job.queue());
		return id;
	}

	/**
	 * Looks each kind up once per call rather than once per job, and wakes each queue once: a wakeup
	 * only starts a poll, which finds all of the queue's new jobs.
	 */
	@Override
	public List<Long> enqueueAll(List<NewJobRequest> requests) {
		Map<String, Optional<JobHandlerDefinition>> handlerByKind = new HashMap<>();
		Function<String, Optional<JobHandlerDefinition>> lookup = kind -> handlerByKind.computeIfAbsent(kind,
				this::acceptedHandler);
		List<NewJob> jobs = new ArrayList<>(requests.size());
		for (NewJobRequest request : requests) {
			jobs.add(newJob(request.kind(), request.payload(), request.options(), lookup));
		}
		List<Long> ids = store.enqueueAll(jobs);
		Set<String> queues = new LinkedHashSet<>();
		for (NewJob job : jobs) {
			listener.onEnqueued(job.queue(), job.kind());
			queues.add(job.queue());
		}
		queues.forEach(this::afterCommit);
		return ids;
	}

	@Override
	public Optional<Job> find(long id) {
		return store.find(id);
	}

	@Override
	public boolean cancel(long id) {
		return store.cancel(id);
	}

	@Override
	public Job await(long id, Duration timeout) {
		return awaiter.await(id, timeout);
	}

	/** Stops what {@link #await} started: its listening connection and its thread. */
	public void close() {
		awaiter.close();
	}

	@Override
	public boolean retry(long id) {
		if (store.retryDead(id)) {
			store.find(id).ifPresent(job -> afterCommit(job.queue()));
			return true;
		}
		store.holderOfUniqueKey(id).ifPresent(holder -> {
			throw new IllegalStateException("job " + id + " stays dead: its unique key is held by unfinished job "
					+ holder + "; retry it once that job has finished");
		});
		return false;
	}

	private NewJob newJob(String kind, Object payload, EnqueueOptions options,
			Function<String, Optional<JobHandlerDefinition>> handlerLookup) {
		require(kind != null && !kind.isBlank(), () -> "kind must not be blank");
		require(kind.indexOf('\u0000') < 0, () -> "kind must not hold the character U+0000");
		require(options != null, () -> "options must not be null");
		Optional<JobHandlerDefinition> handler = handlerLookup.apply(kind);
		String queue = options.queue() != null ? options.queue()
				: handler.map(JobHandlerDefinition::queue).orElse(RuntimeSettings.DEFAULT_QUEUE);
		int maxAttempts = options.maxAttempts() != null ? options.maxAttempts()
				: handler.map(JobHandlerDefinition::retryPolicy).orElse(defaultRetryPolicy).maxAttempts();
		int payloadVersion = options.payloadVersion() != null ? options.payloadVersion()
				: handler.map(JobHandlerDefinition::version).orElse(JobHandlerDefinition.FIRST_VERSION);
		Duration delay = options.runAt() == null ? (options.delay() == null ? Duration.ZERO : options.delay()) : null;
		return new NewJob(queue, kind, payloadJson(kind, payload), payloadVersion, options.priority(), options.runAt(),
				delay, maxAttempts, options.uniqueKey());
	}

	private String payloadJson(String kind, Object payload) {
		String text;
		try {
			text = json.writeValueAsString(payload);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("payload of kind '" + kind + "' cannot be written as JSON: "
					+ ex.getOriginalMessage(), ex);
		}
		require(text.length() <= maxPayloadLength,
				() -> "payload of kind '" + kind + "' is " + text.length() + " characters of JSON, over the max payload "
						+ "length (jobqueue.max-payload-length) of " + maxPayloadLength);
		require(!escapesNul(text),
				() -> "payload of kind '" + kind + "' holds the character U+0000, which PostgreSQL cannot store in JSON");
		return text;
	}

	/**
	 * Whether JSON text holds the escape of U+0000 (a backslash, then u0000), which jsonb refuses. In JSON a
	 * backslash only ever starts an escape, so each one is read together with the character after it: two
	 * backslashes and u0000 spell a backslash and the letters u0000, not a NUL.
	 */
	private static boolean escapesNul(String json) {
		for (int i = json.indexOf('\\'); i >= 0; i = json.indexOf('\\', i + 2)) {
			if (json.startsWith("u0000", i + 1)) {
				return true;
			}
		}
		return false;
	}

	/** The handler of a kind that may be enqueued here, if this node has one; refuses other kinds. */
	private Optional<JobHandlerDefinition> acceptedHandler(String kind) {
		require(handlers.accepts(kind), () -> "kind '" + kind
				+ "' is unknown: no handler here serves it (kinds: " + String.join(", ", handlers.acceptedKinds())
				+ "); declare kinds that other applications handle as external kinds");
		return handlers.handlerFor(kind);
	}

	/** Wakes the queue's poller once the job is visible: after the caller's commit, or now without one. */
	private void afterCommit(String queue) {
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					wakeup.accept(queue);
				}
			});
		}
		else {
			wakeup.accept(queue);
		}
	}

	private static void require(boolean condition, Supplier<String> problem) {
		if (!condition) {
			throw new IllegalArgumentException(problem.get());
		}
	}
}
