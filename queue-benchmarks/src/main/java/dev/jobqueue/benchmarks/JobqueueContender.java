package dev.jobqueue.benchmarks;

import java.util.Arrays;
import java.util.Map;
import java.util.function.LongConsumer;

import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.JdbcJobQueue;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobListener;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.runtime.RuntimeSettings;
import dev.jobqueue.store.JobSchema;
import dev.jobqueue.store.PostgresJobStore;
import dev.jobqueue.store.PostgresNotificationListener;
import tools.jackson.databind.json.JsonMapper;

/**
 * jobqueue with its defaults (1 s poll interval, notifications on) and 32 threads in one queue, like
 * db-scheduler's 32 threads.
 */
final class JobqueueContender implements Contender {

	static final int THREADS = 32;

	private final Database database;

	private final PostgresJobStore store;

	private final HandlerRegistry handlers = new HandlerRegistry();

	private final JobQueue queue;

	private volatile LongConsumer onExecute = data -> {
	};

	private JobRuntime runtime;

	JobqueueContender(Database database) {
		this.database = database;
		JobSchema.migrate(database.dataSource(), "postgresql");
		this.store = new PostgresJobStore(database.dataSource());
		handlers.register(new JobHandlerDefinition("bench", RuntimeSettings.DEFAULT_QUEUE, Long.class, null, false,
				(payload, context) -> {
					onExecute.accept((Long) payload);
					return null;
				}, "the benchmark's no-op handler"));
		this.queue = new JdbcJobQueue(store, JsonMapper.builder().build(), handlers,
				RuntimeSettings.defaults().retryPolicy(), JdbcJobQueue.DEFAULT_MAX_PAYLOAD_LENGTH, JobListener.NONE,
				this::wakeLocally);
	}

	private void wakeLocally(String queueName) {
		JobRuntime current = runtime;
		if (current != null) {
			current.wake(queueName);
		}
	}

	@Override
	public String name() {
		return "jobqueue";
	}

	@Override
	public void reset() {
		database.jdbc().sql("TRUNCATE jobqueue_job").update();
	}

	@Override
	public void enqueue(long data) {
		queue.enqueue("bench", data);
	}

	@Override
	public void enqueueBulk(long[] data) {
		queue.enqueueAll(Arrays.stream(data).mapToObj(d -> new NewJobRequest("bench", d)).toList());
	}

	@Override
	public void startWorkers(LongConsumer onExecute) {
		this.onExecute = onExecute;
		RuntimeSettings settings = RuntimeSettings.defaults().withQueues(Map.of(RuntimeSettings.DEFAULT_QUEUE, THREADS));
		JobRuntime started = new JobRuntime(store, handlers, JsonMapper.builder().build(), settings, JobListener.NONE,
				new TransactionTemplate(new JdbcTransactionManager(database.dataSource())));
		started.addWakeupSource(new PostgresNotificationListener(database.dataSource()));
		started.start();
		runtime = started;
	}

	@Override
	public void stopWorkers() {
		if (runtime != null) {
			runtime.stop();
			runtime = null;
		}
	}

	@Override
	public void close() {
		stopWorkers();
	}
}
