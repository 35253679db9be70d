package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.JobHandlerFunction;
import dev.jobqueue.JobListener;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobAwaiter;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;
import tools.jackson.databind.json.JsonMapper;

/**
 * jobqueue only: how soon {@code JobQueue.await} returns after the job's handler returned, with the default
 * settings (1 s poll interval, notifications on). The awaiting queue is an enqueue-only node of its own, in
 * the same JVM as the worker node: each job is enqueued there, and awaited there while the worker runs it.
 * The time counted is from the handler's return (a {@link System#nanoTime()} the handler writes) to the
 * await's return: it holds the batched completion's write, the notification, and the await's look-up.
 * Percentiles by nearest rank.
 */
final class AwaitLatency {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Report report;

	private final int jobs;

	AwaitLatency(Report report, int jobs) {
		this.report = report;
		this.jobs = jobs;
	}

	void run(Database database) {
		JobStore store = JobStores.forDataSource(database.dataSource());
		Dialect dialect = JobStores.dialect(store.vendor());
		dialect.migrate(database.dataSource());
		database.empty("jobqueue_job");
		AtomicLong returnedAt = new AtomicLong();
		HandlerRegistry handlers = new HandlerRegistry();
		handlers.register(handler((payload, context) -> {
			Thread.sleep(20);
			returnedAt.set(System.nanoTime());
			return payload;
		}));
		RuntimeSettings settings = RuntimeSettings.defaults();
		TransactionTemplate transactions = new TransactionTemplate(new JdbcTransactionManager(database.dataSource()));
		JobRuntime worker = new JobRuntime(store, handlers, JSON, settings, JobListener.NONE,
				dialect.handlerTransactions(transactions));
		JdbcJobQueue enqueueOnly = new JdbcJobQueue(store, JSON, handlers, settings, JobListener.NONE, queue -> {
		}, new JobAwaiter(store.reads(), dialect.finishes(database.dataSource(), true), settings.pollInterval()));
		worker.start();
		try {
			measure(enqueueOnly, returnedAt, settings.pollInterval());
		}
		finally {
			enqueueOnly.close();
			worker.stop();
		}
	}

	private void measure(JdbcJobQueue queue, AtomicLong returnedAt, Duration pollInterval) {
		List<Double> after = new ArrayList<>();
		for (int i = 0; i < jobs; i++) {
			long id = queue.enqueue("awaited", (long) i);
			queue.await(id, Duration.ofSeconds(30));
			after.add((System.nanoTime() - returnedAt.get()) / 1e6);
		}
		Collections.sort(after);
		String notes = String.format("%d jobs one at a time, enqueue-only awaiting node, notifications on, poll "
				+ "interval %d ms", jobs, pollInterval.toMillis());
		for (int p : new int[] { 50, 95, 100 }) {
			double millis = after.get(Math.max(0, (int) Math.ceil(p / 100.0 * after.size()) - 1));
			report.figure("await", "jobqueue", p == 100 ? "max ms" : "p" + p + " ms", millis, "ms", notes);
		}
	}

	@SuppressWarnings("unchecked")
	private static JobHandlerDefinition handler(JobHandlerFunction<Long> function) {
		return new JobHandlerDefinition("awaited", RuntimeSettings.DEFAULT_QUEUE, Long.class, null, false,
				(JobHandlerFunction<Object>) (JobHandlerFunction<?>) function, "the await workload's handler");
	}
}
