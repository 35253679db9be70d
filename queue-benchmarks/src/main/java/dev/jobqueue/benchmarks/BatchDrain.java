package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.stream.LongStream;

/**
 * jobqueue only: what a batch costs. The same number of no-op jobs enqueued in one call and drained, plain
 * ({@code enqueueAll}) and as one batch with a callback on finish, side by side in this JVM with the same 32
 * threads: rounds of one of each, the order swapped every round, {@link #WARM_UP_ROUNDS} unmeasured and then
 * {@link #ROUNDS} measured, as the keyed drain is. A batch's drain ends when its callback has run, after every job
 * of it; its rate counts the batch's jobs only. The enqueue's time is the call's, from the first job to the commit.
 */
final class BatchDrain {

	static final int WARM_UP_ROUNDS = 2;

	static final int ROUNDS = 5;

	private final Report report;

	private final int jobs;

	private final Duration drainTimeout;

	BatchDrain(Report report, int jobs, Duration drainTimeout) {
		this.report = report;
		this.jobs = jobs;
		this.drainTimeout = drainTimeout;
	}

	void run(Database database) throws InterruptedException {
		JobqueueContender contender = new JobqueueContender(database);
		int total = WARM_UP_ROUNDS + ROUNDS;
		Round[] plain = new Round[total];
		Round[] batched = new Round[total];
		for (int round = 0; round < total; round++) {
			if (round % 2 == 0) {
				plain[round] = drain(contender, false);
				batched[round] = drain(contender, true);
			}
			else {
				batched[round] = drain(contender, true);
				plain[round] = drain(contender, false);
			}
		}
		contender.reset();
		String rounds = String.format("median of %d rounds of %d jobs after %d unmeasured, plain and batched "
				+ "alternating, %d threads", ROUNDS, jobs, WARM_UP_ROUNDS, JobqueueContender.THREADS);
		figures("plain", plain, rounds + "; enqueueAll, no batch");
		figures("batch", batched, rounds + "; one batch with a callback on finish, drained once the callback ran");
		double[] ratios = new double[total];
		for (int round = 0; round < total; round++) {
			ratios[round] = 100 * batched[round].drainRate() / plain[round].drainRate();
		}
		report.figure("batch-drain", "jobqueue", "batch drain % of plain", Summary.medianAfter(ratios, WARM_UP_ROUNDS),
				"%", String.format("median of the rounds' ratios; every round %s", Summary.rounded(ratios)));
	}

	private void figures(String variant, Round[] rounds, String notes) {
		double[] drains = new double[rounds.length];
		double[] enqueues = new double[rounds.length];
		for (int i = 0; i < rounds.length; i++) {
			drains[i] = rounds[i].drainRate();
			enqueues[i] = rounds[i].enqueueMillis();
		}
		report.figure("batch-drain", "jobqueue", variant + " jobs/s", Summary.medianAfter(drains, WARM_UP_ROUNDS),
				"1/s", String.format("%s; every round %s", notes, Summary.rounded(drains)));
		report.figure("batch-drain", "jobqueue", variant + " enqueue ms", Summary.medianAfter(enqueues, WARM_UP_ROUNDS),
				"ms", String.format("%s; every round %s", notes, Summary.rounded(enqueues)));
	}

	/** One drain; the batch's callback carries the number after its jobs', so that its run is counted too. */
	private Round drain(JobqueueContender contender, boolean batch) throws InterruptedException {
		contender.reset();
		long[] data = LongStream.range(0, jobs).toArray();
		long enqueueStart = System.nanoTime();
		if (batch) {
			contender.enqueueBatch(data, jobs);
		}
		else {
			contender.enqueueBulk(data);
		}
		double enqueueMillis = (System.nanoTime() - enqueueStart) / 1e6;
		int expected = batch ? jobs + 1 : jobs;
		Executions executions = new Executions(expected);
		Stopwatch watch = new Stopwatch();
		contender.startWorkers(job -> {
			watch.mark();
			executions.record(job);
		});
		long deadline = System.nanoTime() + drainTimeout.toNanos();
		while (executions.distinct() < expected && System.nanoTime() < deadline) {
			Thread.sleep(5);
		}
		long elapsed = watch.elapsedNanos();
		Thread.sleep(500);
		contender.stopWorkers();
		if (executions.distinct() < expected || executions.duplicates() > 0) {
			throw new IllegalStateException(String.format("a batch-drain round did not run every job once: ran %d of "
					+ "%d, duplicates %d", executions.distinct(), expected, executions.duplicates()));
		}
		return new Round(Throughput.perSecond(jobs, elapsed), enqueueMillis);
	}

	private record Round(double drainRate, double enqueueMillis) {
	}
}
