package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.LongStream;

import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.postgres.PostgresDialect;

/**
 * The drains of the nodes workload, interleaved: every set of nodes (1, 2, 4 JVMs) is up at once, each set working
 * a queue of its own ({@code nodes-<count>}), so that one round drains {@code jobs} jobs through each set in turn
 * and runs the raw SQL ceiling ({@link Ceiling#runStatementsUntilEmpty}, in this JVM, on the default queue) once, in an
 * order that rotates every round. Run one set after the other instead, the later sets met a warmer database and the
 * earlier ones colder JITs: four nodes each see a quarter of a drain, and their drains kept getting faster for
 * eight drains. So {@code 2 × the largest count} rounds go unmeasured (each node of the largest set has then run
 * two drains' worth of jobs), then {@link #ROUNDS} are measured. Each drain is enqueued in one transaction, which the set's idle nodes see at once, and timed by
 * the database from its first start to its last finish; every execution is reported back and counted.
 */
final class NodeDrains {

	static final int ROUNDS = 5;

	private final Report report;

	private final int jobs;

	private final Duration timeout;

	NodeDrains(Report report, int jobs, Duration timeout) {
		this.report = report;
		this.jobs = jobs;
		this.timeout = timeout;
	}

	/** The nodes of one count, their queue, and what their drains measured. */
	private static final class NodeSet {

		final int count;

		final JobqueueContender enqueuer;

		final List<NodeProcess> nodes = new ArrayList<>();

		final List<Double> rates = new ArrayList<>();

		volatile Executions executions = new Executions(0);

		int duplicates;

		int lost;

		NodeSet(int count, Database database) {
			this.count = count;
			this.enqueuer = new JobqueueContender(database, 0, queue(count));
		}

	}

	static String queue(int count) {
		return "nodes-" + count;
	}

	void run(Database database, List<Integer> counts, String table) throws Exception {
		List<NodeSet> sets = new ArrayList<>();
		try {
			for (int count : counts) {
				sets.add(start(database, count));
			}
			List<Double> ceilings = rounds(database, sets);
			report(sets, ceilings, table);
		}
		finally {
			for (NodeSet set : sets) {
				NodeProcess.stopAll(set.nodes);
			}
		}
	}

	private static NodeSet start(Database database, int count) throws Exception {
		NodeSet set = new NodeSet(count, database);
		set.nodes.addAll(NodeProcess.startAll(database.url(), queue(count), count,
				(job, micros) -> set.executions.record(job)));
		return set;
	}

	private List<Double> rounds(Database database, List<NodeSet> sets) throws Exception {
		JobStore store = PostgresDialect.jobStore(database.dataSource());
		JobqueueContender ceilingJobs = new JobqueueContender(database, 0, RuntimeSettings.DEFAULT_QUEUE);
		int warmUp = 2 * sets.stream().mapToInt(set -> set.count).max().orElse(1);
		List<Double> ceilings = new ArrayList<>();
		for (int round = 0; round < warmUp + ROUNDS; round++) {
			boolean measured = round >= warmUp;
			List<NodeSet> order = new ArrayList<>(sets);
			order.add(null);
			Collections.rotate(order, round);
			for (NodeSet set : order) {
				if (set == null) {
					ceilingJobs.enqueueBulk(LongStream.range(0, jobs).toArray());
					double ceiling = Ceiling.runStatementsUntilEmpty(store);
					if (measured) {
						ceilings.add(ceiling);
					}
				}
				else {
					drain(database, set, measured);
				}
			}
		}
		return ceilings;
	}

	private void drain(Database database, NodeSet set, boolean measured) throws InterruptedException {
		long before = database.jdbc().sql("SELECT coalesce(max(id), 0) FROM jobqueue_job").query(Long.class).single();
		Executions executions = new Executions(jobs);
		set.executions = executions;
		set.enqueuer.enqueueBulk(LongStream.range(0, jobs).toArray());
		long deadline = System.nanoTime() + timeout.toNanos();
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
		set.duplicates += executions.duplicates();
		set.lost += executions.lost();
		if (measured) {
			set.rates.add(executions.distinct() / seconds);
		}
	}

	private void report(List<NodeSet> sets, List<Double> ceilings, String table) {
		double ceiling = median(ceilings);
		report.figure("nodes", "jobqueue-sql", "ceiling jobs/s", ceiling, "1/s", String.format(
				"%s; median of %d measured rounds %s, %d jobs each, %d threads", table, ROUNDS, rounded(ceilings), jobs,
				Ceiling.THREADS));
		double first = median(sets.get(0).rates);
		for (NodeSet set : sets) {
			double rate = median(set.rates);
			report.figure("nodes", "jobqueue", set.count + " nodes drain jobs/s", rate, "1/s", String.format(
					"%s; median of %d measured rounds %s of %d jobs, interleaved with the other counts and the ceiling; "
							+ "duplicates %d, lost %d (all rounds)",
					table, ROUNDS, rounded(set.rates), jobs, set.duplicates, set.lost));
			report.figure("nodes", "jobqueue", set.count + " nodes % of ceiling", 100 * rate / ceiling, "%", table);
			report.figure("nodes", "jobqueue", set.count + " nodes % of " + sets.get(0).count, 100 * rate / first, "%",
					table);
		}
	}

	private static double median(List<Double> values) {
		return Summary.medianAfter(values.stream().mapToDouble(Double::doubleValue).toArray(), 0);
	}

	private static String rounded(List<Double> values) {
		return Summary.rounded(values.stream().mapToDouble(Double::doubleValue).toArray());
	}
}
