package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.stream.LongStream;

/**
 * A long run on jobqueue: a producer keeps a backlog of up to {@link #BACKLOG} jobs (bulk enqueues
 * of 1,000) while the workers drain, until {@code jobs} have run. Finished rows stay in the table
 * (retention is a day), so the end of the run shows whether the hot path slows as they pile up.
 * Optionally a {@code VACUUM} of the job table every so often, to compare with autovacuum alone; the
 * server's autovacuum settings go into the notes either way.
 */
final class Soak {

	static final int BACKLOG = 20_000;

	static final int CHUNK = 1_000;

	private final Report report;

	private final int jobs;

	private final int window;

	private final Duration vacuumEvery;

	/** @param vacuumEvery how often to vacuum the job table, or null for never */
	Soak(Report report, int jobs, Duration vacuumEvery) {
		this.report = report;
		this.jobs = jobs;
		this.window = Math.max(1, jobs / 10);
		this.vacuumEvery = vacuumEvery;
	}

	void run(Database database) throws InterruptedException {
		JobqueueContender contender = new JobqueueContender(database);
		contender.reset();
		try (Vacuums vacuums = vacuumEvery == null ? null : new Vacuums(database, vacuumEvery)) {
			soak(database, contender);
		}
	}

	private void soak(Database database, JobqueueContender contender) throws InterruptedException {
		Executions executions = new Executions(jobs);
		long[] windowEnds = new long[jobs / window + 1];
		contender.startWorkers(job -> {
			int done = executions.record(job);
			if (done > 0 && done % window == 0) {
				windowEnds[done / window] = System.nanoTime();
			}
		});
		windowEnds[0] = System.nanoTime();
		produce(contender, executions);
		long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
		while (executions.distinct() < jobs && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		Thread.sleep(1000);
		contender.stopWorkers();
		summarize(database, executions, windowEnds);
	}

	private void produce(Contender contender, Executions executions) throws InterruptedException {
		long enqueued = 0;
		while (enqueued < jobs) {
			if (enqueued - executions.distinct() >= BACKLOG) {
				Thread.sleep(1);
				continue;
			}
			long end = Math.min(jobs, enqueued + CHUNK);
			contender.enqueueBulk(LongStream.range(enqueued, end).toArray());
			enqueued = end;
		}
	}

	private void summarize(Database database, Executions executions, long[] windowEnds) {
		int windows = jobs / window;
		double first = Throughput.perSecond(window, windowEnds[1] - windowEnds[0]);
		double last = Throughput.perSecond(window, windowEnds[windows] - windowEnds[windows - 1]);
		String notes = String.format("%d jobs, windows of %d, duplicates %d, lost %d; %s", jobs, window,
				executions.duplicates(), executions.lost(), Vacuums.autovacuumSettings(database));
		String workload = vacuumEvery == null ? "soak" : "soak-vacuum-" + vacuumEvery.toSeconds() + "s";
		report.figure(workload, "jobqueue", "first window jobs/s", first, "1/s", notes);
		report.figure(workload, "jobqueue", "last window jobs/s", last, "1/s", notes);
		report.figure(workload, "jobqueue", "last/first %", 100 * last / first, "%", notes);
		long[] sizes = database.sizes("jobqueue_job");
		report.figure(workload, "jobqueue", "table MB", sizes[0] / 1048576.0, "MB", "jobqueue_job at the end");
		report.figure(workload, "jobqueue", "indexes MB", sizes[1] / 1048576.0, "MB", "all indexes of jobqueue_job");
	}
}
