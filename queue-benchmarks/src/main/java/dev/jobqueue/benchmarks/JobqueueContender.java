package dev.jobqueue.benchmarks;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import javax.sql.DataSource;

import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.Batch;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.WakeupSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * jobqueue with its defaults (1 s poll interval, notifications on PostgreSQL, the change watcher on
 * SQLite, the change watcher on MySQL/MariaDB) and 32 threads in one queue, like db-scheduler's 32 threads;
 * wired as the starter wires it.
 * Keyed, job {@code n} gets the concurrency key {@code key-<n mod keys>}, of the handler's default limit 1. Named
 * {@value #PREFETCH_VARIANT}, its queue keeps {@link #PREFETCH} claimed jobs in line beside its threads.
 */
final class JobqueueContender implements Contender {

	static final int THREADS = 32;

	/** The name of the variant with a prefetch, run only when named. */
	static final String PREFETCH_VARIANT = "jobqueue-prefetch";

	/** The variant's prefetch: three times its threads in line, the line of db-scheduler's prefetch variant. */
	static final int PREFETCH = 3 * THREADS;

	private final Database database;

	/** How many concurrency keys the jobs are spread over; 0 for none. */
	private final int keys;

	/** The queue its jobs go to and its workers work. */
	private final String queueName;

	/** How many claimed jobs may wait for a thread: the queue's prefetch. */
	private final int prefetch;

	private final JobStore store;

	private final Dialect dialect;

	private final HandlerRegistry handlers = new HandlerRegistry();

	private final JobQueue queue;

	private volatile LongConsumer onExecute = data -> {
	};

	private JobRuntime runtime;

	JobqueueContender(Database database) {
		this(database, 0);
	}

	JobqueueContender(Database database, int keys) {
		this(database, keys, RuntimeSettings.DEFAULT_QUEUE);
	}

	JobqueueContender(Database database, int keys, String queueName) {
		this(database, keys, queueName, 0);
	}

	JobqueueContender(Database database, int keys, String queueName, int prefetch) {
		this.database = database;
		this.keys = keys;
		this.queueName = queueName;
		this.prefetch = prefetch;
		this.store = JobStores.forDataSource(database.dataSource());
		this.dialect = JobStores.dialect(store.vendor());
		dialect.migrate(database.dataSource());
		handlers.register(new JobHandlerDefinition("bench", RuntimeSettings.DEFAULT_QUEUE, Long.class, null, false,
				(payload, context) -> {
					onExecute.accept((Long) payload);
					return null;
				}, "the benchmark's no-op handler"));
		this.queue = new JdbcJobQueue(store, JsonMapper.builder().build(), handlers,
				RuntimeSettings.defaults(), JobListener.NONE,
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
		return prefetch == 0 ? "jobqueue" : PREFETCH_VARIANT;
	}

	/** Pauses too: a queue left paused by an earlier user of the database would leave every drain waiting. */
	@Override
	public void reset() {
		database.empty("jobqueue_job");
		database.empty("jobqueue_batch");
		database.empty("jobqueue_batch_job");
		database.empty("jobqueue_pause");
	}

	@Override
	public void enqueue(long data) {
		queue.enqueue("bench", data, options(data));
	}

	@Override
	public void enqueueBulk(long[] data) {
		queue.enqueueAll(Arrays.stream(data).mapToObj(d -> new NewJobRequest("bench", d, options(d))).toList());
	}

	/** Enqueues {@code data} as one batch whose callback on finish carries {@code callback}. */
	void enqueueBatch(long[] data, long callback) {
		Batch batch = queue.batch();
		Arrays.stream(data).forEach(d -> batch.add("bench", d, options(d)));
		batch.onFinish("bench", callback, options(callback)).enqueue();
	}

	private EnqueueOptions options(long data) {
		EnqueueOptions options = EnqueueOptions.defaults().queue(queueName);
		return keys == 0 ? options : options.concurrencyKey("key-" + data % keys);
	}

	@Override
	public void startWorkers(LongConsumer onExecute) {
		this.onExecute = onExecute;
		RuntimeSettings settings = RuntimeSettings.builder()
			.queues(Map.of(queueName, THREADS))
			.prefetch(queueName, prefetch)
			.build();
		// As the starter wires them: handlers' transactions and wake-ups are the dialect's.
		DataSource workers = database.dataSource();
		TransactionOperations transactions = new TransactionTemplate(new JdbcTransactionManager(workers));
		JobRuntime started = new JobRuntime(store, handlers, JsonMapper.builder().build(), settings, JobListener.NONE,
				dialect.handlerTransactions(transactions));
		WakeupSource wakeups = dialect.wakeups(workers, List.of(queueName), true);
		if (wakeups != null) {
			started.addWakeupSource(wakeups);
		}
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
