package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.stream.LongStream;

import dev.jobqueue.RuntimeSettings;

/**
 * jobqueue only, PostgreSQL: does the claim's index stay small on a table that keeps many finished jobs? The
 * table is filled with {@code finished} succeeded jobs (within their day of retention) and {@link #PARKED}
 * jobs due in an hour, vacuumed and analyzed, then {@code jobs} jobs run through a real runtime, its vacuumer
 * included, enqueued in bursts of {@link #BURST} {@link #GAP} apart. The table is left as it is at the end, for
 * a look at the claim's plan (queue-benchmarks/results/2026-11-27-bloat has the scripts).
 *
 * <p>Bursts, because jobs enqueued one at a time clean up after themselves: each lands on the index page where
 * the jobs claimed just before it left their entries, and a page about to split first drops the entries that
 * scans marked dead. A burst's entries fill pages of their own, which no later insert touches.
 */
final class Bloat {

	static final int PARKED = 10_000;

	static final int BURST = 1_000;

	static final Duration GAP = Duration.ofMillis(1000);

	/** Long enough after the last job for the vacuumer (every 2 s) to have had a turn. */
	static final Duration SETTLE = Duration.ofSeconds(5);

	private final Report report;

	private final int finished;

	private final int jobs;

	Bloat(Report report, int finished, int jobs) {
		this.report = report;
		this.finished = finished;
		this.jobs = jobs;
	}

	void run(Database database) throws InterruptedException {
		JobqueueContender contender = new JobqueueContender(database);
		contender.reset();
		Prefill.fill(database, finished, PARKED, RuntimeSettings.DEFAULT_QUEUE);
		Executions executions = new Executions(jobs);
		double vacuumsBefore = vacuums(database);
		contender.startWorkers(executions::record);
		long started = System.nanoTime();
		for (int i = 0; i < jobs; i += BURST) {
			contender.enqueueBulk(LongStream.range(i, Math.min(jobs, i + BURST)).toArray());
			Thread.sleep(GAP.toMillis());
		}
		long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
		while (executions.distinct() < jobs && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		double seconds = (System.nanoTime() - started) / 1e9;
		Thread.sleep(SETTLE.toMillis());
		contender.stopWorkers();
		String notes = String.format("%d finished and %d parked jobs, then %d jobs in bursts of %d %d ms apart, run "
				+ "in %.1f s; duplicates %d, lost %d", finished, PARKED, jobs, BURST, GAP.toMillis(), seconds,
				executions.duplicates(), executions.lost());
		report.figure("bloat", "jobqueue", "ready index pages", readyIndexPages(database), "pages", notes);
		report.figure("bloat", "jobqueue", "vacuums", vacuums(database) - vacuumsBefore, "", notes);
	}

	private static double readyIndexPages(Database database) {
		return database.jdbc()
			.sql("SELECT pg_relation_size('jobqueue_job_ready_idx') / current_setting('block_size')::int")
			.query(Long.class)
			.single();
	}

	/** The job table's vacuums since its statistics were last reset. */
	private static double vacuums(Database database) {
		return database.jdbc()
			.sql("SELECT vacuum_count FROM pg_stat_user_tables WHERE relid = CAST('jobqueue_job' AS regclass)")
			.query(Long.class)
			.single();
	}
}
