package dev.jobqueue.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command-line options of a benchmark run, checked before anything runs: every mistake fails with a
 * message that names the option and what it accepts.
 *
 * @param database {@code postgresql}, {@code sqlite} or {@code mysql} (MySQL or MariaDB)
 * @param url the JDBC URL, or null for SQLite's fresh temporary file
 * @param drainWarmUpJobs how many jobs the unmeasured drain before the measured one runs
 * @param drainTimeout how long a drain may take before its library is reported as timed out
 * @param soakVacuum how often the soak vacuums the job table, or null for never (autovacuum only)
 * @param floodJobs how many jobs the large tenant of the fairness workload enqueues
 * @param finishedJobs how many finished jobs the bloat, nodes and console workloads fill the table with
 * @param parkedJobs how many jobs due in an hour the nodes workload fills the table with
 * @param steadySeconds how long the producers of the nodes workload enqueue at their fixed rate
 * @param nodes the numbers of worker JVMs the nodes workload runs, one after the other
 */
record Options(String workload, String database, String url, List<String> systems, int jobs, int drainWarmUpJobs,
		int latencyJobs, int soakJobs, Duration drainTimeout, Duration soakVacuum, int floodJobs, int finishedJobs,
		int parkedJobs, int steadySeconds, List<Integer> nodes, Path out) {

	static final List<String> WORKLOADS = List.of("enqueue", "enqueue-16", "bulk", "drain", "latency", "ceiling", "bulk-variants",
			"soak", "lateness", "await", "fairness", "rate-limits", "keyed-drain", "batch-drain", "key-sweep", "bloat", "nodes", "console", "all");

	static final List<String> DATABASES = List.of("postgresql", "sqlite", "mysql");

	/**
	 * The workloads that run on SQLite and on MySQL/MariaDB: those of the libraries' APIs with one thread enqueuing.
	 * The others drive jobqueue's PostgreSQL statements directly, or enqueue from many threads at once, which
	 * SQLite's one writer at a time would turn into a measure of its busy timeout.
	 */
	static final List<String> PORTABLE = List.of("enqueue", "bulk", "drain", "latency", "lateness", "await", "keyed-drain", "batch-drain", "key-sweep",
			"rate-limits",
			"all");

	private static final Set<String> NAMES = Set.of("database", "url", "systems", "jobs", "drain-warm-up-jobs",
			"latency-jobs", "soak-jobs", "drain-timeout-seconds", "soak-vacuum-seconds", "flood-jobs", "finished-jobs",
			"parked-jobs", "steady-seconds", "nodes", "out");

	static Options parse(String[] args) {
		if (args.length == 0 || !WORKLOADS.contains(args[0])) {
			throw new IllegalArgumentException("first argument must be a workload, one of " + WORKLOADS);
		}
		Map<String, String> values = pairs(args);
		String database = database(values.get("database"), values.get("url"));
		String url = values.getOrDefault("url", database.equals("sqlite") ? null : System.getenv(urlVariable(database)));
		if (!database.equals("postgresql")) {
			checkPortable(args[0], database);
		}
		if (!database.equals("sqlite") && (url == null || url.isBlank())) {
			throw new IllegalArgumentException("no database: pass --url, set " + urlVariable(database)
					+ ", or pass --database sqlite");
		}
		if (values.containsKey("soak-vacuum-seconds") && !args[0].equals("soak")) {
			throw new IllegalArgumentException("--soak-vacuum-seconds applies to the soak workload only");
		}
		int jobs = positive(values, "jobs", 20_000);
		return new Options(args[0], database, url, systems(values, database), jobs,
				positive(values, "drain-warm-up-jobs", Math.min(Throughput.WARM_UP, jobs)),
				positive(values, "latency-jobs", 200), positive(values, "soak-jobs", 1_000_000),
				Duration.ofSeconds(positive(values, "drain-timeout-seconds", Math.max(60, jobs / 100))),
				values.containsKey("soak-vacuum-seconds") ? Duration.ofSeconds(positive(values, "soak-vacuum-seconds", 0))
						: null,
				positive(values, "flood-jobs", 50_000), positive(values, "finished-jobs", 1_000_000),
				positive(values, "parked-jobs", 200_000), positive(values, "steady-seconds", 15), nodes(values),
				values.containsKey("out") ? Path.of(values.get("out")) : null);
	}

	boolean sqlite() {
		return database.equals("sqlite");
	}

	boolean postgres() {
		return database.equals("postgresql");
	}

	private static Map<String, String> pairs(String[] args) {
		Map<String, String> values = new LinkedHashMap<>();
		for (int i = 1; i < args.length; i += 2) {
			if (!args[i].startsWith("--") || i + 1 >= args.length) {
				throw new IllegalArgumentException("expected --name value pairs after the workload, got " + args[i]);
			}
			String name = args[i].substring(2);
			if (!NAMES.contains(name)) {
				throw new IllegalArgumentException("unknown option --" + name + "; known: " + NAMES.stream().sorted().toList());
			}
			values.put(name, args[i + 1]);
		}
		return values;
	}

	/** The environment variable that names the server of {@code database} when no --url does. */
	private static String urlVariable(String database) {
		return database.equals("mysql") ? "JOBQUEUE_BENCH_MYSQL_URL" : "JOBQUEUE_BENCH_POSTGRES_URL";
	}

	/** The database named by --database, else the one the URL's scheme names, else PostgreSQL. */
	private static String database(String named, String url) {
		String inferred = url == null ? null : Database.vendorOf(url);
		if (named == null) {
			return inferred != null ? inferred : "postgresql";
		}
		if (!DATABASES.contains(named)) {
			throw new IllegalArgumentException("--database must be one of " + DATABASES + ", was " + named);
		}
		if (inferred != null && !inferred.equals(named)) {
			throw new IllegalArgumentException("--database " + named + " does not match the --url " + url);
		}
		return named;
	}

	private static void checkPortable(String workload, String database) {
		if (!PORTABLE.contains(workload)) {
			throw new IllegalArgumentException("the " + workload + " workload runs on PostgreSQL only; on " + database
					+ " run " + String.join(", ", PORTABLE));
		}
	}

	private static List<String> systems(Map<String, String> values, String database) {
		List<String> systems = Arrays.asList(values.getOrDefault("systems", String.join(",", Bench.SYSTEMS)).split(","));
		systems.forEach(Bench::checkSystem);
		if (systems.contains(DbSchedulerContender.SKIP_LOCKED) && !database.equals("mysql")) {
			throw new IllegalArgumentException(DbSchedulerContender.SKIP_LOCKED + " runs on MySQL/MariaDB only");
		}
		if (systems.contains(DbSchedulerContender.PREFETCH) && database.equals("sqlite")) {
			throw new IllegalArgumentException(DbSchedulerContender.PREFETCH + " runs on PostgreSQL and MySQL/MariaDB "
					+ "only, where db-scheduler has lock-and-fetch");
		}
		return List.copyOf(systems);
	}

	private static List<Integer> nodes(Map<String, String> values) {
		return Arrays.stream(values.getOrDefault("nodes", "1,2,4").split(","))
			.map(count -> positive(Map.of("nodes", count), "nodes", 0))
			.toList();
	}

	private static int positive(Map<String, String> values, String name, int fallback) {
		String text = values.getOrDefault(name, Integer.toString(fallback));
		int value;
		try {
			value = Integer.parseInt(text);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("--" + name + " must be a whole number, was " + text);
		}
		if (value < 1) {
			throw new IllegalArgumentException("--" + name + " must be at least 1, was " + value);
		}
		return value;
	}
}
