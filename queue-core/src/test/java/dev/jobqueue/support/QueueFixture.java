package dev.jobqueue.support;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.Job;
import dev.jobqueue.JobHandlerFunction;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.TestHooks;
import tools.jackson.databind.json.JsonMapper;

/**
 * One test's queue on a {@link TestDatabase}: a handler registry, a {@link JobQueue}, and runtimes
 * started on demand and stopped by {@link #close()}.
 */
public final class QueueFixture implements AutoCloseable {

	/** Quick settings for tests: short poll, lease and reaper intervals, fast retries. */
	public static final RuntimeSettings SETTINGS = RuntimeSettings.builder()
		.pollInterval(Duration.ofMillis(100))
		.lease(Duration.ofSeconds(5)).heartbeatInterval(Duration.ofSeconds(1))
		.reaperInterval(Duration.ofMillis(200))
		.shutdownTimeout(Duration.ofSeconds(5))
		.retryPolicy(new RetryPolicy(3, Duration.ofMillis(10), Duration.ofMillis(50), 2.0, 0.0)).build();

	public static final JsonMapper JSON = JsonMapper.builder().build();

	private final TestDatabase database;

	private final HandlerRegistry handlers = new HandlerRegistry();

	private final List<JobRuntime> runtimes = new CopyOnWriteArrayList<>();

	private final CountingListener enqueues = new CountingListener();

	private final JdbcJobQueue queue;

	private final List<JdbcJobQueue> queues = new CopyOnWriteArrayList<>();

	public QueueFixture(TestDatabase database) {
		this.database = database;
		database.reset();
		this.queue = queue(SETTINGS);
	}

	public JobQueue queue() {
		return queue;
	}

	/** Another queue on the fixture's handlers, with settings of its own (its enqueues counted too). */
	public JdbcJobQueue queue(RuntimeSettings settings) {
		JdbcJobQueue created = new JdbcJobQueue(database.store(), JSON, handlers, settings, enqueues,
				name -> runtimes.forEach(runtime -> runtime.wake(name)));
		queues.add(created);
		return created;
	}

	/** What the fixture's queues reported of their enqueues. */
	public CountingListener enqueues() {
		return enqueues;
	}

	public JobStore store() {
		return database.store();
	}

	public TestHooks testHooks() {
		return database.testHooks();
	}

	public HandlerRegistry handlers() {
		return handlers;
	}

	public TestDatabase database() {
		return database;
	}

	public JdbcClient jdbc() {
		return JdbcClient.create(database.dataSource());
	}

	public TransactionTemplate transactions() {
		return new TransactionTemplate(new JdbcTransactionManager(database.dataSource()));
	}

	public <T> void handle(String kind, Class<T> payloadType, JobHandlerFunction<T> function) {
		handle(kind, payloadType, null, false, function);
	}

	public <T> void handle(String kind, Class<T> payloadType, RetryPolicy policy, boolean transactional,
			JobHandlerFunction<T> function) {
		handlers.register(definition(kind, payloadType, policy, transactional, function));
	}

	/** A handler for a registry of its own, as another node (another version of the application) has. */
	@SuppressWarnings("unchecked")
	public static <T> JobHandlerDefinition definition(String kind, Class<T> payloadType, RetryPolicy policy,
			boolean transactional, JobHandlerFunction<T> function) {
		return new JobHandlerDefinition(kind, RuntimeSettings.DEFAULT_QUEUE, payloadType, policy, transactional,
				(JobHandlerFunction<Object>) function, "test handler of " + kind);
	}

	/** A handler with a timeout of its own. */
	@SuppressWarnings("unchecked")
	public <T> void handle(String kind, Class<T> payloadType, Duration timeout, JobHandlerFunction<T> function) {
		handlers.register(new JobHandlerDefinition(kind, RuntimeSettings.DEFAULT_QUEUE, payloadType, null, false,
				(JobHandlerFunction<Object>) function, "test handler of " + kind, timeout));
	}

	/** A handler defined in full, such as one of a payload version above 1. */
	public void handle(JobHandlerDefinition definition) {
		handlers.register(definition);
	}

	public void declareExternal(String kind) {
		handlers.declareExternal(kind);
	}

	public JobRuntime startRuntime(RuntimeSettings settings, CountingListener listener) {
		return startRuntime(database.store(), handlers, settings, listener);
	}

	/** Starts a runtime that serves the kinds of {@code nodeHandlers}, not the fixture's. */
	public JobRuntime startRuntime(HandlerRegistry nodeHandlers, RuntimeSettings settings, CountingListener listener) {
		return startRuntime(database.store(), nodeHandlers, settings, listener);
	}

	/** A runtime on {@code store}: the database's own, or one of its operations intercepted. */
	public JobRuntime startRuntime(JobStore store, RuntimeSettings settings, CountingListener listener) {
		return startRuntime(store, handlers, settings, listener);
	}

	private JobRuntime startRuntime(JobStore store, HandlerRegistry nodeHandlers, RuntimeSettings settings,
			CountingListener listener) {
		JobRuntime runtime = new JobRuntime(store, nodeHandlers, JSON, settings, listener, transactions());
		runtimes.add(runtime);
		runtime.start();
		return runtime;
	}

	public JobRuntime startRuntime() {
		return startRuntime(SETTINGS, new CountingListener());
	}

	public Job job(long id) {
		return queue.find(id).orElseThrow(() -> new AssertionError("no job " + id));
	}

	public JobState state(long id) {
		return job(id).state();
	}

	public Map<String, Map<JobState, Long>> counts() {
		return database.store().telemetry().countByQueueAndState();
	}

	@Override
	public void close() {
		runtimes.forEach(JobRuntime::stop);
		queues.forEach(JdbcJobQueue::close);
	}
}
