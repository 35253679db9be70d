package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;

import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobHandlerFunction;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;
import tools.jackson.databind.json.JsonMapper;

/**
 * jobqueue only: how late a delayed job and a retry start on an idle node with the default settings
 * (1 s poll interval). Each job is enqueued once the previous one ran, after a random pause of up to a
 * poll interval, so that it falls due at any point of the poller's cycle; lateness is its
 * {@code started_at} minus its {@code run_at}, both the database's clock. Percentiles by nearest rank.
 */
final class Lateness {

	static final Duration DELAY = Duration.ofMillis(300);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Report report;

	private final int jobs;

	private final Random random = new Random(15);

	Lateness(Report report, int jobs) {
		this.report = report;
		this.jobs = jobs;
	}

	void run(Database database) throws InterruptedException {
		JobStore store = JobStores.forDataSource(database.dataSource());
		Dialect dialect = JobStores.dialect(store.vendor());
		dialect.migrate(database.dataSource());
		database.empty("jobqueue_job");
		HandlerRegistry handlers = new HandlerRegistry();
		handlers.register(handler("delayed", null, (payload, context) -> null));
		handlers.register(handler("retried", new RetryPolicy(2, DELAY, DELAY, 1.0, 0.0), (payload, context) -> {
			if (context.attempt() == 1) {
				throw new IllegalStateException("the first attempt fails");
			}
			return null;
		}));
		RuntimeSettings settings = RuntimeSettings.defaults();
		TransactionTemplate transactions = new TransactionTemplate(new JdbcTransactionManager(database.dataSource()));
		JobRuntime runtime = new JobRuntime(store, handlers, JSON, settings, JobListener.NONE,
				dialect.handlerTransactions(transactions));
		JobQueue queue = new JdbcJobQueue(store, JSON, handlers, settings, JobListener.NONE, runtime::wake);
		runtime.start();
		try {
			measure("delayed", queue, settings.pollInterval(),
					() -> queue.enqueue("delayed", 0L, EnqueueOptions.defaults().delay(DELAY)));
			measure("retry", queue, settings.pollInterval(), () -> queue.enqueue("retried", 0L));
		}
		finally {
			runtime.stop();
		}
	}

	private void measure(String scenario, JobQueue queue, Duration pollInterval, LongSupplier enqueue)
			throws InterruptedException {
		List<Double> late = new ArrayList<>();
		for (int i = 0; i < jobs; i++) {
			Thread.sleep(random.nextInt((int) pollInterval.toMillis()));
			Job job = awaitSucceeded(queue, enqueue.getAsLong());
			late.add(Duration.between(job.runAt(), job.startedAt()).toNanos() / 1e6);
		}
		Collections.sort(late);
		String notes = String.format("%d jobs, %d ms %s, idle node, poll interval %d ms", jobs, DELAY.toMillis(),
				scenario.equals("retry") ? "backoff" : "delay", pollInterval.toMillis());
		for (int p : new int[] { 50, 95, 100 }) {
			double millis = late.get(Math.max(0, (int) Math.ceil(p / 100.0 * late.size()) - 1));
			report.figure("lateness-" + scenario, "jobqueue", p == 100 ? "max ms" : "p" + p + " ms", millis, "ms", notes);
		}
	}

	private static Job awaitSucceeded(JobQueue queue, long id) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (System.nanoTime() < deadline) {
			Job job = queue.find(id).orElseThrow();
			if (job.state() == JobState.succeeded) {
				return job;
			}
			Thread.sleep(5);
		}
		throw new IllegalStateException("job " + id + " did not succeed within 30 s");
	}

	@SuppressWarnings("unchecked")
	private static JobHandlerDefinition handler(String kind, RetryPolicy policy, JobHandlerFunction<Long> function) {
		return new JobHandlerDefinition(kind, RuntimeSettings.DEFAULT_QUEUE, Long.class, policy, false,
				(JobHandlerFunction<Object>) (JobHandlerFunction<?>) function, "the lateness workload's " + kind);
	}
}
