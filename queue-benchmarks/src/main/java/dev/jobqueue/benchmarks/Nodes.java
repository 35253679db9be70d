package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.LongStream;

import dev.jobqueue.store.postgres.PostgresJobStore;

/**
 * jobqueue only, PostgreSQL: 1, 2 and 4 worker nodes (or the counts {@code --nodes} gives), each a JVM of its own ({@link NodeProcess}), on one database.
 *
 * <p>Steady state first, on an empty table and again once the table holds a production day's rows
 * ({@link Prefill}: {@code finished} finished jobs, {@code parked} jobs due in an hour): {@link #PRODUCERS}
 * producer JVMs enqueue {@link #RATE} jobs a second between them for {@code steadySeconds}, one at a time, and the
 * wait from enqueue to handler start is taken per job. Then, on the filled table, drains of {@code jobs} jobs by
 * each number of nodes, the nodes kept up over one unmeasured and {@link #ROUNDS} measured drains (so that their
 * JITs are warm), each drain timed by the database from its first start to its last finish; and, between the
 * node counts, the raw SQL ceiling ({@link Ceiling#claimAndCompleteAll}) over as many jobs on the same table, so
 * that the drains are read against what the database could do at that moment of the run.
 */
final class Nodes {

	static final int ROUNDS = 3;

	static final int PRODUCERS = 2;

	static final int RATE = 500;

	private static final Duration START = Duration.ofSeconds(60);

	private final Report report;

	private final int jobs;

	private final int finished;

	private final int parked;

	private final int steadySeconds;

	private final Duration drainTimeout;

	private final List<Integer> counts;

	private volatile Executions drained = new Executions(0);

	Nodes(Report report, Options options) {
		this.report = report;
		this.jobs = options.jobs();
		this.finished = options.finishedJobs();
		this.parked = options.parkedJobs();
		this.steadySeconds = options.steadySeconds();
		this.drainTimeout = options.drainTimeout();
		this.counts = options.nodes();
	}

	void run(Database database) throws Exception {
		JobqueueContender contender = new JobqueueContender(database);
		contender.reset();
		String empty = "empty table";
		for (int nodes : counts) {
			steadyState(database, nodes, empty);
		}
		Prefill.fill(database, finished, parked);
		String filled = String.format("%d finished + %d due in an hour", finished, parked);
		drains(database, contender, filled);
		for (int nodes : counts) {
			steadyState(database, nodes, filled);
		}
	}

	private void drains(Database database, JobqueueContender contender, String table) throws Exception {
		PostgresJobStore store = new PostgresJobStore(database.dataSource());
		ceiling(contender, store);
		List<Double> ceilings = new ArrayList<>();
		double[] medians = new double[counts.size()];
		for (int i = 0; i < counts.size(); i++) {
			ceilings.add(ceiling(contender, store));
			medians[i] = drains(database, contender, counts.get(i), table);
		}
		ceilings.add(ceiling(contender, store));
		double ceiling = Summary.medianAfter(ceilings.stream().mapToDouble(Double::doubleValue).toArray(), 0);
		report.figure("nodes", "jobqueue-sql", "ceiling jobs/s", ceiling, "1/s", String.format(
				"%s; median of the %d loops between the node counts %s, %d jobs each, %d threads", table,
				ceilings.size(), Summary.rounded(ceilings.stream().mapToDouble(Double::doubleValue).toArray()), jobs,
				Ceiling.THREADS));
		for (int i = 0; i < counts.size(); i++) {
			report.figure("nodes", "jobqueue", counts.get(i) + " nodes % of ceiling", 100 * medians[i] / ceiling, "%",
					table);
			report.figure("nodes", "jobqueue", counts.get(i) + " nodes % of " + counts.get(0), 100 * medians[i] / medians[0],
					"%", table);
		}
	}

	private double ceiling(JobqueueContender contender, PostgresJobStore store) throws Exception {
		contender.enqueueBulk(LongStream.range(0, jobs).toArray());
		return Ceiling.claimAndCompleteAll(store);
	}

	/** One unmeasured and {@link #ROUNDS} measured drains by {@code count} nodes; returns the median. */
	private double drains(Database database, JobqueueContender contender, int count, String table) throws Exception {
		double[] rates = new double[ROUNDS + 1];
		int duplicates = 0;
		int lost = 0;
		List<NodeProcess> nodes = startNodes(database, count, (job, micros) -> drained.record(job));
		try {
			for (int round = 0; round <= ROUNDS; round++) {
				Executions executions = new Executions(jobs);
				rates[round] = drainOnce(database, contender, executions);
				duplicates += executions.duplicates();
				lost += executions.lost();
			}
		}
		finally {
			stop(nodes);
		}
		double median = Summary.medianAfter(rates, 1);
		report.figure("nodes", "jobqueue", count + " nodes drain jobs/s", median, "1/s", String.format(
				"%s; median of %d drains of %d jobs after 1 unmeasured, every drain %s; duplicates %d, lost %d", table,
				ROUNDS, jobs, Summary.rounded(rates), duplicates, lost));
		return median;
	}

	/** Enqueues the drain's jobs in one transaction, which the idle nodes see at once, and times their run. */
	private double drainOnce(Database database, JobqueueContender contender, Executions executions)
			throws InterruptedException {
		long before = database.jdbc().sql("SELECT coalesce(max(id), 0) FROM jobqueue_job").query(Long.class).single();
		drained = executions;
		contender.enqueueBulk(LongStream.range(0, jobs).toArray());
		long deadline = System.nanoTime() + drainTimeout.toNanos();
		while (executions.distinct() < jobs && System.nanoTime() < deadline) {
			Thread.sleep(5);
		}
		// Late duplicates, if any, would show within the next claims.
		Thread.sleep(500);
		double seconds = database.jdbc()
			.sql("SELECT extract(epoch FROM max(finished_at) - min(started_at)) FROM jobqueue_job WHERE id > :before")
			.param("before", before)
			.query(Double.class)
			.single();
		return executions.distinct() / seconds;
	}

	private void steadyState(Database database, int count, String table) throws Exception {
		Queue<Long> waits = new ConcurrentLinkedQueue<>();
		int expected = RATE / PRODUCERS * PRODUCERS * steadySeconds;
		List<NodeProcess> nodes = startNodes(database, count, (enqueuedAt, startedAt) -> waits.add(startedAt - enqueuedAt));
		try {
			List<Process> producers = new ArrayList<>();
			for (int i = 0; i < PRODUCERS; i++) {
				producers.add(RateProducer.start(database.url(), RATE / PRODUCERS, steadySeconds));
			}
			for (Process producer : producers) {
				if (producer.waitFor() != 0) {
					throw new IllegalStateException("a producer JVM failed with exit code " + producer.exitValue());
				}
			}
			long deadline = System.nanoTime() + drainTimeout.toNanos();
			while (waits.size() < expected && System.nanoTime() < deadline) {
				Thread.sleep(5);
			}
		}
		finally {
			stop(nodes);
		}
		reportWaits(count, table, new ArrayList<>(waits), expected);
	}

	private void reportWaits(int count, String table, List<Long> waits, int expected) {
		Collections.sort(waits);
		String notes = String.format("%s; %d of %d jobs started; %d producer JVMs, %d jobs/s between them for %d s",
				table, waits.size(), expected, PRODUCERS, RATE, steadySeconds);
		String setup = count + " nodes, " + (table.startsWith("empty") ? "empty" : "filled");
		for (int p : new int[] { 50, 99, 100 }) {
			double millis = waits.isEmpty() ? Double.NaN
					: waits.get(Math.max(0, (int) Math.ceil(p / 100.0 * waits.size()) - 1)) / 1000.0;
			report.figure("nodes", "jobqueue", setup + (p == 100 ? " wait max ms" : " wait p" + p + " ms"), millis,
					"ms", notes);
		}
	}

	private static List<NodeProcess> startNodes(Database database, int count, NodeProcess.Sink sink) throws Exception {
		List<NodeProcess> nodes = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			nodes.add(NodeProcess.start(database.url(), sink));
		}
		for (NodeProcess node : nodes) {
			node.awaitStarted(START);
		}
		return nodes;
	}

	private static void stop(List<NodeProcess> nodes) throws Exception {
		for (NodeProcess node : nodes) {
			node.close();
		}
	}
}
