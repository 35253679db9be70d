package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.PostgresJobStore;

/**
 * What the database does with jobqueue's own statements and nothing else: threads that claim a batch
 * and complete it in one statement, in a tight loop, with no runtime (no handler, no pool hand-off,
 * no heartbeat). The queue's drain is measured against this.
 */
final class Ceiling {

	static final int THREADS = 4;

	static final int BATCH = 64;

	private final Report report;

	private final int jobs;

	Ceiling(Report report, int jobs) {
		this.report = report;
		this.jobs = jobs;
	}

	void run(Database database) throws Exception {
		JobqueueContender contender = new JobqueueContender(database);
		contender.reset();
		contender.enqueueBulk(LongStream.range(0, jobs).toArray());
		PostgresJobStore store = new PostgresJobStore(database.dataSource());
		AtomicLong done = new AtomicLong();
		ExecutorService threads = Executors.newFixedThreadPool(THREADS);
		long start = System.nanoTime();
		List<Future<?>> loops = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			loops.add(threads.submit(() -> claimAndCompleteUntilEmpty(store, done)));
		}
		for (Future<?> loop : loops) {
			loop.get();
		}
		long elapsed = System.nanoTime() - start;
		threads.shutdown();
		report.figure("ceiling", "jobqueue-sql", "jobs/s", Throughput.perSecond(done.get(), elapsed), "1/s",
				String.format("%d jobs, %d threads, claim %d + one batched completion per loop", jobs, THREADS, BATCH));
	}

	private static void claimAndCompleteUntilEmpty(PostgresJobStore store, AtomicLong done) {
		while (true) {
			List<ClaimedJob> claimed = store.claim("default", BATCH, "ceiling", Duration.ofMinutes(5));
			if (claimed.isEmpty()) {
				return;
			}
			store.completeAll(claimed.stream().map(job -> new Completion(job.lease(), null)).toList());
			done.addAndGet(claimed.size());
		}
	}
}
