package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.postgres.PostgresDialect;

/**
 * What the database does with jobqueue's own statements and nothing else: threads that claim a batch, the claim
 * confirmed by its own update, and complete the batch in one statement, in a tight loop, with no runtime (no
 * handler, no pool hand-off, no heartbeat). These are the two statements a runtime with free threads sends per
 * claim (decision record 048). The queue's drain is measured against this.
 *
 * <p>Both are measured here, side by side in this JVM, in rounds of one drain by the queue and one run
 * of the loop over the same number of jobs, the order swapped every round: {@link #WARM_UP_ROUNDS}
 * rounds unmeasured, then {@link #ROUNDS} measured. A ceiling measured at the end of a long run and a
 * drain measured at its start would compare two states of the JIT as much as two ways of using the
 * database; and the queue, with more code on its path than the loop, takes longer to reach its speed
 * (its first rounds of 20,000 jobs ran at two thirds of its later ones, while the loop's did not move).
 */
final class Ceiling {

	static final int THREADS = 4;

	static final int BATCH = 64;

	static final int WARM_UP_ROUNDS = 2;

	static final int ROUNDS = 3;

	private final Report report;

	private final int jobs;

	private final Duration drainTimeout;

	Ceiling(Report report, int jobs, Duration drainTimeout) {
		this.report = report;
		this.jobs = jobs;
		this.drainTimeout = drainTimeout;
	}

	void run(Database database) throws Exception {
		JobqueueContender contender = new JobqueueContender(database);
		JobStore store = PostgresDialect.jobStore(database.dataSource());
		int total = WARM_UP_ROUNDS + ROUNDS;
		double[] drains = new double[total];
		double[] loops = new double[total];
		for (int round = 0; round < total; round++) {
			if (round % 2 == 0) {
				drains[round] = drain(contender);
				loops[round] = loop(contender, store, jobs);
			}
			else {
				loops[round] = loop(contender, store, jobs);
				drains[round] = drain(contender);
			}
		}
		contender.reset();
		double ceiling = Summary.medianAfter(loops, WARM_UP_ROUNDS);
		double drain = Summary.medianAfter(drains, WARM_UP_ROUNDS);
		String rounds = String.format("median of %d rounds of %d jobs after %d unmeasured, drain and loop alternating",
				ROUNDS, jobs, WARM_UP_ROUNDS);
		report.figure("ceiling", "jobqueue-sql", "jobs/s", ceiling, "1/s",
				String.format("%s; %d threads, claim %d, confirmed by its update, + one batched completion per loop; every round %s",
						rounds, THREADS, BATCH, Summary.rounded(loops)));
		report.figure("ceiling", "jobqueue", "drain jobs/s", drain, "1/s",
				String.format("%s; every round %s", rounds, Summary.rounded(drains)));
		report.figure("ceiling", "jobqueue", "drain % of ceiling", 100 * drain / ceiling, "%", rounds);
	}

	private double drain(JobqueueContender contender) throws InterruptedException {
		Throughput.Drained drained = Throughput.drainOnce(contender, jobs, drainTimeout);
		if (drained.timedOut() || drained.executions().duplicates() > 0 || drained.executions().lost() > 0) {
			throw new IllegalStateException(String.format("the drain beside the ceiling did not run every job once: "
					+ "timed out %s, duplicates %d, lost %d", drained.timedOut(), drained.executions().duplicates(),
					drained.executions().lost()));
		}
		return Throughput.perSecond(jobs, drained.nanos());
	}

	private static double loop(JobqueueContender contender, JobStore store, int count) throws Exception {
		contender.reset();
		contender.enqueueBulk(LongStream.range(0, count).toArray());
		return runStatementsUntilEmpty(store);
	}

	/** Runs the loop on {@link #THREADS} threads until no job is due; returns the jobs per second they did. */
	static double runStatementsUntilEmpty(JobStore store) throws Exception {
		AtomicLong done = new AtomicLong();
		ExecutorService threads = Executors.newFixedThreadPool(THREADS);
		try {
			long start = System.nanoTime();
			List<Future<?>> loops = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				loops.add(threads.submit(() -> claimAndCompleteUntilEmpty(store, done)));
			}
			for (Future<?> loop : loops) {
				loop.get();
			}
			return Throughput.perSecond(done.get(), System.nanoTime() - start);
		}
		finally {
			threads.shutdown();
		}
	}

	private static void claimAndCompleteUntilEmpty(JobStore store, AtomicLong done) {
		while (true) {
			List<ClaimedJob> claimed = store.claims()
				.claim("default", Map.of("bench", 1), BATCH, "ceiling", Duration.ofMinutes(5), true);
			if (claimed.isEmpty()) {
				return;
			}
			store.outcomes().completeAll(claimed.stream().map(job -> new Completion(job.lease(), null)).toList());
			done.addAndGet(claimed.size());
		}
	}
}
