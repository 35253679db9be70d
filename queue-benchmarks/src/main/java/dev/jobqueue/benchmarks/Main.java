package dev.jobqueue.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs benchmark workloads on jobqueue and its peers. Usage:
 * <pre>
 * java -jar queue-benchmarks.jar &lt;workload&gt; [--url JDBC_URL] [--systems jobqueue,db-scheduler,JobRunr]
 *     [--jobs 20000] [--latency-jobs 200] [--soak-jobs 1000000] [--out results.tsv]
 * </pre>
 * Workloads: {@code enqueue}, {@code bulk}, {@code drain}, {@code latency}, {@code ceiling},
 * {@code bulk-variants}, {@code soak}, or {@code all} (everything but the soak). The URL defaults to
 * {@code JOBQUEUE_BENCH_POSTGRES_URL}.
 */
public final class Main {

	static final List<String> WORKLOADS = List.of("enqueue", "bulk", "drain", "latency", "ceiling", "bulk-variants",
			"soak", "all");

	private Main() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length >= 1 && args[0].equals("produce")) {
			produce(args[1], Integer.parseInt(args[2]), args[3]);
			return;
		}
		Options options = Options.parse(args);
		try (Database database = new Database(options.url(), 40)) {
			new Bench(options, database).run();
		}
		// JobRunr and HikariCP leave non-daemon threads behind.
		System.exit(0);
	}

	/** The producer JVM of the cross-process latency workload: enqueues only, runs no workers. */
	private static void produce(String system, int jobs, String url) throws InterruptedException {
		try (Database database = new Database(url, 2); Contender contender = Bench.contender(system, database, false)) {
			Latency.produce(contender, jobs);
		}
		System.exit(0);
	}

	/** Command-line options, checked before anything runs. */
	record Options(String workload, String url, List<String> systems, int jobs, int latencyJobs, int soakJobs,
			Path out) {

		static Options parse(String[] args) {
			if (args.length == 0 || !WORKLOADS.contains(args[0])) {
				throw new IllegalArgumentException("first argument must be a workload, one of " + WORKLOADS);
			}
			Map<String, String> values = new LinkedHashMap<>();
			for (int i = 1; i < args.length; i += 2) {
				if (!args[i].startsWith("--") || i + 1 >= args.length) {
					throw new IllegalArgumentException("expected --name value pairs after the workload, got " + args[i]);
				}
				values.put(args[i].substring(2), args[i + 1]);
			}
			String url = values.getOrDefault("url", System.getenv("JOBQUEUE_BENCH_POSTGRES_URL"));
			if (url == null || url.isBlank()) {
				throw new IllegalArgumentException("no database: pass --url or set JOBQUEUE_BENCH_POSTGRES_URL");
			}
			List<String> systems = new ArrayList<>(Arrays.asList(values.getOrDefault("systems", String.join(",", Bench.SYSTEMS)).split(",")));
			systems.forEach(Bench::checkSystem);
			return new Options(args[0], url, systems, positive(values, "jobs", 20_000),
					positive(values, "latency-jobs", 200), positive(values, "soak-jobs", 1_000_000),
					values.containsKey("out") ? Path.of(values.get("out")) : null);
		}

		private static int positive(Map<String, String> values, String name, int fallback) {
			int value = Integer.parseInt(values.getOrDefault(name, Integer.toString(fallback)));
			if (value < 1) {
				throw new IllegalArgumentException("--" + name + " must be at least 1, was " + value);
			}
			return value;
		}
	}

	static Duration drainTimeout(int jobs) {
		return Duration.ofSeconds(Math.max(60, jobs / 100));
	}
}
