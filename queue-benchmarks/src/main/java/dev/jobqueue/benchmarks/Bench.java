package dev.jobqueue.benchmarks;

import java.util.List;

import dev.jobqueue.RuntimeSettings;

/** Runs the chosen workload on each chosen library, one library after the other, in this JVM. */
final class Bench {

	static final List<String> SYSTEMS = List.of("jobqueue", "db-scheduler", "JobRunr");

	/**
	 * Run only when named: db-scheduler as it does not configure itself, for its best on MariaDB, and both libraries
	 * with a line of claimed jobs beside their threads.
	 */
	static final List<String> ON_REQUEST = List.of(DbSchedulerContender.SKIP_LOCKED, DbSchedulerContender.PREFETCH,
			JobqueueContender.PREFETCH_VARIANT);

	private final Options options;

	private final Database database;

	private final Report report;

	Bench(Options options, Database database) {
		this.options = options;
		this.database = database;
		this.report = new Report(options.out());
	}

	static void checkSystem(String system) {
		if (!SYSTEMS.contains(system) && !ON_REQUEST.contains(system)) {
			throw new IllegalArgumentException("unknown system '" + system + "'; known: " + SYSTEMS + " and "
					+ ON_REQUEST);
		}
	}

	static Contender contender(String system, Database database, boolean withWorkers) {
		return switch (system) {
			case "jobqueue" -> new JobqueueContender(database);
			case "db-scheduler" -> new DbSchedulerContender(database);
			case DbSchedulerContender.SKIP_LOCKED -> new DbSchedulerContender(database, true, false);
			case DbSchedulerContender.PREFETCH -> new DbSchedulerContender(database, database.mysql(), true);
			case JobqueueContender.PREFETCH_VARIANT ->
				new JobqueueContender(database, 0, RuntimeSettings.DEFAULT_QUEUE, JobqueueContender.PREFETCH);
			case "JobRunr" -> new JobRunrContender(database, withWorkers);
			default -> throw new IllegalArgumentException("unknown system '" + system + "'; known: " + SYSTEMS);
		};
	}

	void run() throws Exception {
		String workload = options.workload();
		boolean all = workload.equals("all");
		if (all || List.of("enqueue", "enqueue-16", "bulk", "drain", "latency").contains(workload)) {
			for (String system : options.systems()) {
				try (Contender contender = contender(system, database, true)) {
					runOn(contender, workload, all);
				}
			}
		}
		boolean postgres = options.postgres();
		if (postgres && (all || workload.equals("ceiling"))) {
			new Ceiling(report, options.jobs(), options.drainTimeout()).run(database);
		}
		if (postgres && (all || workload.equals("bulk-variants"))) {
			new BulkVariants(report, options.jobs()).run(database);
		}
		if (workload.equals("await")) {
			new AwaitLatency(report, options.latencyJobs()).run(database);
		}
		if (workload.equals("lateness")) {
			new Lateness(report, options.latencyJobs()).run(database);
		}
		if (workload.equals("fairness")) {
			new Fairness(report, options.floodJobs(), options.drainTimeout()).run(database);
		}
		if (workload.equals("rate-limits")) {
			new RateLimits(report).run(database);
		}
		if (workload.equals("key-sweep")) {
			new KeySweep(report, options.jobs()).run(database);
		}
		if (workload.equals("batch-drain")) {
			new BatchDrain(report, options.jobs(), options.drainTimeout()).run(database);
		}
		if (workload.equals("keyed-drain")) {
			new KeyedDrain(report, options.jobs(), options.drainTimeout()).run(database);
		}
		if (workload.equals("bloat")) {
			new Bloat(report, options.finishedJobs(), options.jobs()).run(database);
		}
		if (workload.equals("console")) {
			new ConsoleQueries(report, options.finishedJobs()).run(database);
		}
		if (workload.equals("nodes")) {
			new Nodes(report, options).run(database);
		}
		if (workload.equals("soak")) {
			new Soak(report, options.soakJobs(), options.soakVacuum()).run(database);
		}
	}

	private void runOn(Contender contender, String workload, boolean all) throws Exception {
		Throughput throughput = new Throughput(report, options.jobs(), options.drainWarmUpJobs());
		Latency latency = new Latency(report, options.latencyJobs(), database.url());
		if (all || workload.equals("enqueue")) {
			throughput.enqueueOneAtATime(contender);
		}
		if (workload.equals("enqueue-16")) {
			throughput.enqueueConcurrently(contender);
		}
		if (all || workload.equals("bulk")) {
			throughput.enqueueBulk(contender);
		}
		if (all || workload.equals("drain")) {
			throughput.drain(contender, options.drainTimeout());
		}
		if (all || workload.equals("latency")) {
			latency.otherJvm(contender);
			latency.sameJvm(contender);
		}
		contender.reset();
	}
}
