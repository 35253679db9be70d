package dev.jobqueue.benchmarks;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * Runs benchmark workloads on jobqueue and its peers. Usage:
 * <pre>
 * java -jar queue-benchmarks.jar &lt;workload&gt; [--database postgresql|sqlite|mysql] [--url JDBC_URL]
 *     [--systems jobqueue,db-scheduler,JobRunr] [--jobs 20000] [--latency-jobs 200] [--soak-jobs 1000000]
 *     [--drain-timeout-seconds 200] [--soak-vacuum-seconds N] [--flood-jobs 50000] [--finished-jobs 1000000]
 *     [--parked-jobs 200000] [--steady-seconds 15] [--out results.tsv]
 * java -jar queue-benchmarks.jar summarize run1.tsv run2.tsv run3.tsv
 * java -jar queue-benchmarks.jar compare &lt;git-ref&gt; [--rounds 3] [--workloads drain,bulk,latency] [options]
 * </pre>
 * Workloads: {@code enqueue}, {@code bulk}, {@code drain}, {@code latency}, {@code ceiling},
 * {@code bulk-variants}, {@code soak}, {@code lateness} (jobqueue's delayed jobs and retries on an idle node,
 * {@code --latency-jobs} of each), {@code await} (how soon jobqueue's await returns after a handler returned,
 * {@code --latency-jobs} jobs), {@code fairness} (a small tenant's wait behind a flood of {@code --flood-jobs}, with
 * and without concurrency keys), {@code rate-limits} (the sustained starts of a kind's rate limit against the limit,
 * from a backlog), {@code keyed-drain} (a drain of {@code --jobs} over 1,000 keys of limit 1 beside
 * a plain one), {@code batch-drain} (a drain of {@code --jobs} enqueued as one batch with a callback, beside a plain
 * one), {@code key-sweep} (the promoter's sweep over {@code --jobs} busy keys: a stretch and a whole walk),
 * {@code bloat} (the claim's index on a table of {@code --finished-jobs} finished jobs after
 * {@code --jobs} more ran, the table left as it is), {@code nodes} (1, 2 and 4 worker JVMs on a table of
 * {@code --finished-jobs} finished and {@code --parked-jobs} future jobs: drains of {@code --jobs} beside the raw
 * SQL ceiling, and enqueue-to-start waits while producer JVMs enqueue at a fixed rate for {@code --steady-seconds}),
 * {@code console} (the operator's reads — counts, searches, explain — on a table of {@code --finished-jobs}),
 * or {@code all} (everything but the soak, the lateness, the await, the fairness, the keyed and batch drains, the bloat,
 * the nodes and the console). The PostgreSQL URL defaults to
 * {@code JOBQUEUE_BENCH_POSTGRES_URL}, the MySQL/MariaDB one ({@code --database mysql}) to
 * {@code JOBQUEUE_BENCH_MYSQL_URL}; {@code --database sqlite} without a URL runs on a fresh temporary file. On
 * SQLite and MySQL/MariaDB only the library workloads of one enqueuing thread apply (enqueue, bulk, drain,
 * latency, lateness, await); the others drive PostgreSQL statements directly. On MySQL/MariaDB, {@code --systems}
 * also takes {@code db-scheduler-skip-locked}: db-scheduler claiming with SKIP LOCKED on MariaDB, which it does not
 * choose there itself. Anywhere it takes {@code jobqueue-prefetch}, and where db-scheduler has lock-and-fetch
 * {@code db-scheduler-prefetch}: each library with a line of 96 claimed jobs beside its 32 threads.
 */
public final class Main {

	private Main() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length >= 1 && args[0].equals("produce")) {
			produce(args[1], Integer.parseInt(args[2]), args[3]);
			return;
		}
		if (args.length >= 1 && args[0].equals("node")) {
			NodeProcess.run(args[1], args[2]);
			System.exit(0);
		}
		if (args.length >= 1 && args[0].equals("produce-at")) {
			RateProducer.run(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
			System.exit(0);
		}
		if (args.length >= 1 && args[0].equals("compare")) {
			Compare.run(args);
			System.exit(0);
		}
		if (args.length >= 1 && args[0].equals("summarize")) {
			System.out.print(new Summary(Arrays.stream(args).skip(1).map(Path::of).toList()).markdown());
			return;
		}
		Options options = Options.parse(args);
		// The nodes workload's JVMs bring pools of their own, and the database's connections are shared by all.
		int pool = options.workload().equals("nodes") ? Ceiling.THREADS + 2 : 40;
		try (Database database = Database.open(options, pool)) {
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
}
