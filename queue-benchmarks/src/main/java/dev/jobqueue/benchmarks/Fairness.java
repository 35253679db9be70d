package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.IntStream;

import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobHandlerFunction;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.postgres.support.PostgresNotificationListener;
import tools.jackson.databind.json.JsonMapper;

/**
 * jobqueue only: how long a small tenant waits behind a large tenant's flood. Tenant A enqueues its flood in
 * one call, then tenant B its {@link #SMALL_TENANT_JOBS} jobs in one call, while 32 threads work; every job
 * sleeps {@link #WORK}. Plain FIFO (no keys) against fair sharing by key: each tenant its key
 * ({@code tenant-a}, {@code tenant-b}), and the prefix {@code tenant-} one limit for both, as
 * {@code jobqueue.concurrency-key-limits} would set it, so that the tenants weigh the same. Each limit of
 * {@link #LIMITS}: the queue's threads (a tenant alone can use every thread) and four times that (a tenant
 * alone keeps a line of ready jobs for threads that free up). B's wait is from the return of B's enqueue to
 * the start of each of its handlers; A's drain is from the return of A's enqueue to the end of its last
 * handler. A round of each, a fifth of the size, runs first unmeasured. Percentiles by nearest rank.
 */
final class Fairness {

	static final int THREADS = JobqueueContender.THREADS;

	static final int SMALL_TENANT_JOBS = 100;

	static final Duration WORK = Duration.ofMillis(1);

	/** The limits of the tenants' keys, each measured against FIFO; 0 for FIFO itself. */
	static final int[] LIMITS = { 0, THREADS, 4 * THREADS };

	private static final String KIND = "tenant-work";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Report report;

	private final int floodJobs;

	private final Duration timeout;

	Fairness(Report report, int floodJobs, Duration timeout) {
		this.report = report;
		this.floodJobs = floodJobs;
		this.timeout = timeout;
	}

	void run(Database database) throws InterruptedException {
		JobStore store = JobStores.forDataSource(database.dataSource());
		JobStores.migrate(database.dataSource(), store.vendor());
		for (int limit : LIMITS) {
			new Round(database, store, Math.max(1, floodJobs / 5), limit).run();
		}
		for (int limit : LIMITS) {
			new Round(database, store, floodJobs, limit).run().report(report);
		}
		database.empty("jobqueue_job");
	}

	/** One flood and one small tenant's jobs, with keys of a limit or without (0), on a runtime of their own. */
	private final class Round {

		private final Database database;

		private final JobStore store;

		private final int flood;

		private final int limit;

		private final AtomicLongArray starts;

		private final AtomicLongArray ends;

		private final Executions executions;

		Round(Database database, JobStore store, int flood, int limit) {
			this.database = database;
			this.store = store;
			this.flood = flood;
			this.limit = limit;
			this.starts = new AtomicLongArray(flood + SMALL_TENANT_JOBS);
			this.ends = new AtomicLongArray(flood + SMALL_TENANT_JOBS);
			this.executions = new Executions(flood + SMALL_TENANT_JOBS);
		}

		Outcome run() throws InterruptedException {
			database.empty("jobqueue_job");
			HandlerRegistry handlers = new HandlerRegistry();
			handlers.register(handler());
			RuntimeSettings settings = RuntimeSettings.builder()
				.queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, THREADS))
				.concurrencyKeyLimit("tenant-", Math.max(1, limit))
				.build();
			JobRuntime runtime = new JobRuntime(store, handlers, JSON, settings, JobListener.NONE,
					new TransactionTemplate(new JdbcTransactionManager(database.dataSource())));
			runtime.addWakeupSource(
					new PostgresNotificationListener(database.dataSource(), List.of(RuntimeSettings.DEFAULT_QUEUE)));
			JdbcJobQueue queue = new JdbcJobQueue(store, JSON, handlers, settings, JobListener.NONE, runtime::wake);
			runtime.start();
			try {
				queue.enqueueAll(requests(0, flood, "tenant-a"));
				long floodEnqueued = System.nanoTime();
				queue.enqueueAll(requests(flood, SMALL_TENANT_JOBS, "tenant-b"));
				long smallEnqueued = System.nanoTime();
				awaitAll();
				return new Outcome(limit, flood, smallWaits(smallEnqueued), floodDrain(floodEnqueued), executions);
			}
			finally {
				queue.close();
				runtime.stop();
			}
		}

		private List<NewJobRequest> requests(int first, int count, String tenant) {
			EnqueueOptions options = limit > 0 ? EnqueueOptions.defaults().concurrencyKey(tenant)
					: EnqueueOptions.defaults();
			return IntStream.range(first, first + count)
				.mapToObj(n -> new NewJobRequest(KIND, (long) n, options))
				.toList();
		}

		private void awaitAll() throws InterruptedException {
			long deadline = System.nanoTime() + timeout.toNanos();
			while (executions.distinct() < flood + SMALL_TENANT_JOBS) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException(String.format("fairness round did not finish within %d s: %d of %d "
							+ "jobs ran", timeout.toSeconds(), executions.distinct(), flood + SMALL_TENANT_JOBS));
				}
				Thread.sleep(5);
			}
		}

		private double[] smallWaits(long enqueued) {
			return IntStream.range(flood, flood + SMALL_TENANT_JOBS)
				.mapToDouble(n -> (starts.get(n) - enqueued) / 1e6)
				.sorted()
				.toArray();
		}

		private double floodDrain(long enqueued) {
			return (IntStream.range(0, flood).mapToLong(ends::get).max().orElse(enqueued) - enqueued) / 1e6;
		}

		@SuppressWarnings("unchecked")
		private JobHandlerDefinition handler() {
			JobHandlerFunction<Long> work = (payload, context) -> {
				int n = payload.intValue();
				starts.set(n, System.nanoTime());
				Thread.sleep(WORK.toMillis());
				ends.set(n, System.nanoTime());
				executions.record(n);
				return null;
			};
			return new JobHandlerDefinition(KIND, RuntimeSettings.DEFAULT_QUEUE, Long.class, null, false,
					(JobHandlerFunction<Object>) (JobHandlerFunction<?>) work, "the fairness workload's handler");
		}
	}

	/** A measured round: B's waits in ms, sorted, and A's drain in ms. */
	private record Outcome(int limit, int flood, double[] smallWaits, double floodDrainMillis, Executions executions) {

		void report(Report report) {
			String mode = limit > 0 ? "limit " + limit : "FIFO";
			String notes = String.format("%s; A %d jobs, then B %d, %d threads, %d ms of work each; duplicates %d, lost %d",
					limit > 0 ? "keys tenant-a and tenant-b, limit " + limit + " each" : "no keys", flood,
					SMALL_TENANT_JOBS, THREADS, WORK.toMillis(), executions.duplicates(), executions.lost());
			for (int p : new int[] { 50, 99, 100 }) {
				report.figure("fairness", "jobqueue", mode + " B wait " + (p == 100 ? "max" : "p" + p) + " ms",
						percentile(p), "ms", notes);
			}
			report.figure("fairness", "jobqueue", mode + " A drain ms", floodDrainMillis, "ms", notes);
			report.figure("fairness", "jobqueue", mode + " A jobs/s", Throughput.perSecond(flood,
					(long) (floodDrainMillis * 1e6)), "1/s", notes);
		}

		private double percentile(int p) {
			return smallWaits[Math.max(0, (int) Math.ceil(p / 100.0 * smallWaits.length) - 1)];
		}
	}
}
