package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.jobqueue.RuntimeSettings;

/**
 * jobqueue only, PostgreSQL: 1, 2 and 4 worker nodes (or the counts {@code --nodes} gives), each a JVM of its own
 * ({@link NodeProcess}), on one database.
 *
 * <p>Steady state first, on an empty table and again once the table holds a production day's rows
 * ({@link Prefill}: {@code finished} finished jobs, and {@code parked} jobs due in an hour in every queue the run
 * uses): {@link #PRODUCERS} producer JVMs enqueue {@link #RATE} jobs a second between them for
 * {@code steadySeconds} (after a third as long unmeasured), one at a time, and the wait from enqueue to handler
 * start is taken per job. Between the two, on the filled table, the drains ({@link NodeDrains}).
 */
final class Nodes {

	static final int PRODUCERS = 2;

	static final int RATE = 500;

	private final Report report;

	private final int jobs;

	private final int finished;

	private final int parked;

	private final int steadySeconds;

	private final Duration drainTimeout;

	private final List<Integer> counts;

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
		new JobqueueContender(database).reset();
		String empty = "empty table";
		for (int nodes : counts) {
			steadyState(database, nodes, empty);
		}
		List<String> queues = new ArrayList<>(List.of(RuntimeSettings.DEFAULT_QUEUE));
		counts.forEach(count -> queues.add(NodeDrains.queue(count)));
		Prefill.fill(database, finished, parked, queues.toArray(String[]::new));
		String filled = String.format("%d finished + %d due in an hour in each queue", finished, parked);
		new NodeDrains(report, jobs, drainTimeout).run(database, counts, filled);
		for (int nodes : counts) {
			steadyState(database, nodes, filled);
		}
	}

	/**
	 * The producers run a third longer than measured: the waits of the jobs enqueued in that first stretch, while
	 * the new node JVMs compile their paths, are left out.
	 */
	private void steadyState(Database database, int count, String table) throws Exception {
		Queue<long[]> starts = new ConcurrentLinkedQueue<>();
		int warmUp = steadySeconds / 3;
		int expected = RATE / PRODUCERS * PRODUCERS * (warmUp + steadySeconds);
		List<NodeProcess> nodes = NodeProcess.startAll(database.url(), RuntimeSettings.DEFAULT_QUEUE, count,
				(enqueuedAt, startedAt) -> starts.add(new long[] { enqueuedAt, startedAt - enqueuedAt }));
		long measuredFrom = Latency.nowMicros() + warmUp * 1_000_000L;
		try {
			List<Process> producers = new ArrayList<>();
			for (int i = 0; i < PRODUCERS; i++) {
				producers.add(RateProducer.start(database.url(), RATE / PRODUCERS, warmUp + steadySeconds));
			}
			for (Process producer : producers) {
				if (producer.waitFor() != 0) {
					throw new IllegalStateException("a producer JVM failed with exit code " + producer.exitValue());
				}
			}
			long deadline = System.nanoTime() + drainTimeout.toNanos();
			while (starts.size() < expected && System.nanoTime() < deadline) {
				Thread.sleep(5);
			}
		}
		finally {
			NodeProcess.stopAll(nodes);
		}
		List<Long> waits = new ArrayList<>(starts.stream().filter(s -> s[0] >= measuredFrom).map(s -> s[1]).toList());
		reportWaits(count, table, waits, String.format("%d of %d jobs started, the %d enqueued in the first %d s left out",
				starts.size(), expected, starts.size() - waits.size(), warmUp));
	}

	private void reportWaits(int count, String table, List<Long> waits, String started) {
		Collections.sort(waits);
		String notes = String.format("%s; %s; %d producer JVMs, %d jobs/s between them for %d s measured", table,
				started, PRODUCERS, RATE, steadySeconds);
		String setup = count + " nodes, " + (table.startsWith("empty") ? "empty" : "filled");
		for (int p : new int[] { 50, 99, 100 }) {
			double millis = waits.isEmpty() ? Double.NaN : waits.get(Latency.rank(waits.size(), p)) / 1000.0;
			report.figure("nodes", "jobqueue", setup + (p == 100 ? " wait max ms" : " wait p" + p + " ms"), millis,
					"ms", notes);
		}
	}
}
