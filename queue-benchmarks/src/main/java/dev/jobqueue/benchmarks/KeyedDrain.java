package dev.jobqueue.benchmarks;

import java.time.Duration;

/**
 * jobqueue only: what concurrency keys cost a drain. The same number of no-op jobs drained plain and spread
 * over {@link #KEYS} keys of limit 1, side by side in this JVM with the same 32 threads: rounds of one drain
 * of each, the order swapped every round, {@link #WARM_UP_ROUNDS} unmeasured and then {@link #ROUNDS}
 * measured, as the ceiling is measured and for the same reason (the JIT's progress would favour whichever
 * ran later). A keyed drain starts with each key's first job promoted and its other jobs blocked; every
 * completion then hands its key's slot on through a promotion.
 */
final class KeyedDrain {

	static final int KEYS = 1000;

	static final int WARM_UP_ROUNDS = 2;

	static final int ROUNDS = 5;

	private final Report report;

	private final int jobs;

	private final Duration drainTimeout;

	KeyedDrain(Report report, int jobs, Duration drainTimeout) {
		this.report = report;
		this.jobs = jobs;
		this.drainTimeout = drainTimeout;
	}

	void run(Database database) throws InterruptedException {
		int keys = Math.min(KEYS, jobs);
		JobqueueContender plain = new JobqueueContender(database);
		JobqueueContender keyed = new JobqueueContender(database, keys);
		int total = WARM_UP_ROUNDS + ROUNDS;
		double[] plainRates = new double[total];
		double[] keyedRates = new double[total];
		double[] ratios = new double[total];
		for (int round = 0; round < total; round++) {
			if (round % 2 == 0) {
				plainRates[round] = drain(plain);
				keyedRates[round] = drain(keyed);
			}
			else {
				keyedRates[round] = drain(keyed);
				plainRates[round] = drain(plain);
			}
			ratios[round] = 100 * keyedRates[round] / plainRates[round];
		}
		plain.reset();
		String rounds = String.format("median of %d rounds of %d jobs after %d unmeasured, plain and keyed alternating, "
				+ "%d threads", ROUNDS, jobs, WARM_UP_ROUNDS, JobqueueContender.THREADS);
		report.figure("keyed-drain", "jobqueue", "plain jobs/s", Summary.medianAfter(plainRates, WARM_UP_ROUNDS), "1/s",
				String.format("%s; no keys; every round %s", rounds, Summary.rounded(plainRates)));
		report.figure("keyed-drain", "jobqueue", "keyed jobs/s", Summary.medianAfter(keyedRates, WARM_UP_ROUNDS), "1/s",
				String.format("%s; %d keys of limit 1; every round %s", rounds, keys, Summary.rounded(keyedRates)));
		report.figure("keyed-drain", "jobqueue", "keyed % of plain", Summary.medianAfter(ratios, WARM_UP_ROUNDS), "%",
				String.format("median of the rounds' ratios; every round %s", Summary.rounded(ratios)));
	}

	private double drain(JobqueueContender contender) throws InterruptedException {
		Throughput.Drained drained = Throughput.drainOnce(contender, jobs, drainTimeout);
		if (drained.timedOut() || drained.executions().duplicates() > 0 || drained.executions().lost() > 0) {
			throw new IllegalStateException(String.format("a keyed-drain round did not run every job once: timed out "
					+ "%s, duplicates %d, lost %d", drained.timedOut(), drained.executions().duplicates(),
					drained.executions().lost()));
		}
		return Throughput.perSecond(jobs, drained.nanos());
	}
}
