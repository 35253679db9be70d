package dev.jobqueue.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.jobqueue.support.MysqlTestDatabase;
import dev.jobqueue.support.PostgresTestDatabase;

/**
 * Every workload, tiny, on the test databases (PostgreSQL, SQLite, MySQL/MariaDB): the benchmark still runs end
 * to end and its drains lose and duplicate nothing. JobRunr's latency (a 5 s poll interval at best) is left to
 * real runs.
 */
class BenchmarkSmokeTest {

	@TempDir
	Path dir;

	@Test
	void everyWorkloadRunsTinyAndReportsItsFigures() throws Exception {
		Path out = dir.resolve("results.tsv");
		String url = PostgresTestDatabase.url();
		try (Database database = new Database(url, 40)) {
			run(database, "all", "jobqueue,db-scheduler", out, "--latency-jobs", "3");
			run(database, "drain", "JobRunr", out);
			run(database, "bulk", "JobRunr", out);
			run(database, "soak", "jobqueue", out, "--soak-jobs", "1000");
			run(database, "enqueue-16", "jobqueue,db-scheduler,JobRunr", out);
		}

		List<String[]> figures = Files.readAllLines(out).stream().map(line -> line.split("\t")).toList();
		Map<String, List<String>> librariesByWorkload = figures.stream()
			.collect(Collectors.groupingBy(f -> f[0], Collectors.mapping(f -> f[1], Collectors.toList())));
		assertThat(librariesByWorkload.keySet()).containsExactlyInAnyOrder("enqueue", "bulk", "drain",
				"latency-other-jvm", "latency-same-jvm", "ceiling", "bulk-variants", "soak", "enqueue-16");
		assertThat(librariesByWorkload.get("drain")).containsExactlyInAnyOrder("jobqueue", "db-scheduler", "JobRunr");
		assertThat(librariesByWorkload.get("enqueue-16")).containsExactlyInAnyOrder("jobqueue", "db-scheduler",
				"JobRunr");
		assertThat(figures).filteredOn(f -> f[0].equals("drain") || f[0].equals("soak") && f[5].contains("lost"))
			.allSatisfy(f -> assertThat(f[5]).contains("duplicates 0, lost 0"));
		assertThat(figures).allSatisfy(f -> assertThat(Double.parseDouble(f[3])).isPositive());
	}

	@Test
	void theFlowControlWorkloadsRunTinyAndRunEveryJobOnce() throws Exception {
		Path out = dir.resolve("flow.tsv");
		try (Database database = new Database(PostgresTestDatabase.url(), 40)) {
			run(database, "fairness", "jobqueue", out, "--flood-jobs", "500");
			run(database, "keyed-drain", "jobqueue", out);
			run(database, "batch-drain", "jobqueue", out);
			run(database, "key-sweep", "jobqueue", out, "--jobs", "2500");
		}

		List<String[]> figures = Files.readAllLines(out).stream().map(line -> line.split("\t")).toList();
		assertThat(figures).filteredOn(f -> f[0].equals("fairness"))
			.extracting(f -> f[2])
			.containsExactly("FIFO B wait p50 ms", "FIFO B wait p99 ms", "FIFO B wait max ms", "FIFO A drain ms",
					"FIFO A jobs/s", "limit 32 B wait p50 ms", "limit 32 B wait p99 ms", "limit 32 B wait max ms",
					"limit 32 A drain ms", "limit 32 A jobs/s", "limit 128 B wait p50 ms", "limit 128 B wait p99 ms",
					"limit 128 B wait max ms", "limit 128 A drain ms", "limit 128 A jobs/s");
		assertThat(figures).filteredOn(f -> f[0].equals("fairness"))
			.allSatisfy(f -> assertThat(f[5]).contains("A 500 jobs, then B 100").contains("duplicates 0, lost 0"));
		assertThat(figures).filteredOn(f -> f[0].equals("keyed-drain"))
			.extracting(f -> f[2])
			.containsExactly("plain jobs/s", "keyed jobs/s", "keyed % of plain");
		assertThat(figures).filteredOn(f -> f[0].equals("batch-drain"))
			.extracting(f -> f[2])
			.containsExactly("plain jobs/s", "plain enqueue ms", "batch jobs/s", "batch enqueue ms",
					"batch drain % of plain");
		assertThat(figures).filteredOn(f -> f[0].equals("key-sweep"))
			.extracting(f -> f[2])
			.containsExactly("stretch ms", "whole walk ms");
		assertThat(figures).allSatisfy(f -> assertThat(Double.parseDouble(f[3])).isPositive());
	}

	@Test
	void theBloatWorkloadRunsTinyAndLeavesItsTableAsItIs() throws Exception {
		Path out = dir.resolve("bloat.tsv");
		try (Database database = new Database(PostgresTestDatabase.url(), 40)) {
			run(database, "bloat", "jobqueue", out, "--finished-jobs", "1000");

			assertThat(database.jdbc().sql("SELECT state, count(*) FROM jobqueue_job GROUP BY state ORDER BY state")
				.query((rs, n) -> rs.getString(1) + " " + rs.getLong(2))
				.list()).containsExactly("ready " + Bloat.PARKED, "succeeded 1200");
		}

		List<String[]> figures = Files.readAllLines(out).stream().map(line -> line.split("\t")).toList();
		assertThat(figures).extracting(f -> f[2]).containsExactly("ready index pages", "vacuums");
		assertThat(figures).allSatisfy(f -> assertThat(f[5]).contains("1000 finished").contains("duplicates 0, lost 0"));
		assertThat(Double.parseDouble(figures.get(0)[3])).isPositive();
	}

	@Test
	void theNodesWorkloadRunsTinyWithWorkerAndProducerJvmsAndRunsEveryJobOnce() throws Exception {
		Path out = dir.resolve("nodes.tsv");
		try (Database database = new Database(PostgresTestDatabase.url(), 40)) {
			run(database, "nodes", "jobqueue", out, "--finished-jobs", "1000", "--parked-jobs", "100",
					"--steady-seconds", "1", "--nodes", "2");
		}

		List<String[]> figures = Files.readAllLines(out).stream().map(line -> line.split("\t")).toList();
		assertThat(figures).extracting(f -> f[2]).containsExactly("2 nodes, empty wait p50 ms",
				"2 nodes, empty wait p99 ms", "2 nodes, empty wait max ms", "ceiling jobs/s", "2 nodes drain jobs/s",
				"2 nodes % of ceiling", "2 nodes % of 2", "2 nodes, filled wait p50 ms", "2 nodes, filled wait p99 ms",
				"2 nodes, filled wait max ms");
		assertThat(figures).filteredOn(f -> f[2].endsWith("drain jobs/s"))
			.allSatisfy(f -> assertThat(f[5]).contains("1000 finished + 100 due in an hour")
				.contains("duplicates 0, lost 0"));
		assertThat(figures).filteredOn(f -> f[2].contains("wait"))
			.allSatisfy(f -> assertThat(f[5]).contains("500 of 500 jobs started"));
		assertThat(figures).allSatisfy(f -> assertThat(Double.parseDouble(f[3])).isPositive());
	}

	@Test
	void theConsoleWorkloadTimesEveryReadOnATinyTable() throws Exception {
		Path out = dir.resolve("console.tsv");
		try (Database database = new Database(PostgresTestDatabase.url(), 40)) {
			run(database, "console", "jobqueue", out, "--finished-jobs", "1000");
		}

		List<String[]> figures = Files.readAllLines(out).stream().map(line -> line.split("\t")).toList();
		assertThat(figures).extracting(f -> f[2]).containsExactly("counts by queue and state ms",
				"search, every job, first page ms", "search, every job, 11th page ms", "search, dead jobs ms",
				"search, succeeded jobs ms", "search, one queue's ready jobs ms", "search, dead by kind and error text ms",
				"find one job ms", "explain a dead job ms", "explain a ready job ms", "nodes ms",
				"finished per minute, last 5 minutes ms", "oldest ready job of a queue ms");
		assertThat(figures).allSatisfy(f -> assertThat(f[5]).startsWith("1000 succeeded (30000 more in the last 5 "
				+ "minutes), 10000 dead"));
	}

	@Test
	void theLibraryWorkloadsRunTinyOnAFreshSqliteFile() throws Exception {
		Path out = dir.resolve("sqlite.tsv");
		String[] common = { "--database", "sqlite", "--jobs", "200", "--out", out.toString() };
		runOnSqlite("all", "jobqueue,db-scheduler", common, "--latency-jobs", "3");
		runOnSqlite("drain", "JobRunr", common);

		List<String[]> figures = Files.readAllLines(out).stream().map(line -> line.split("\t")).toList();
		assertThat(figures).extracting(f -> f[0]).containsOnly("enqueue", "bulk", "drain", "latency-other-jvm",
				"latency-same-jvm");
		assertThat(figures).filteredOn(f -> f[0].equals("drain"))
			.extracting(f -> f[1])
			.containsExactlyInAnyOrder("jobqueue", "db-scheduler", "JobRunr");
		assertThat(figures).filteredOn(f -> f[0].equals("drain"))
			.allSatisfy(f -> assertThat(f[5]).contains("duplicates 0, lost 0"));
	}

	@Test
	void theLibraryWorkloadsRunTinyOnMysqlSideBySide() throws Exception {
		Path out = dir.resolve("mysql.tsv");
		try (Database database = new Database(MysqlTestDatabase.url(), 40)) {
			run(database, "all", "jobqueue,db-scheduler", out, "--latency-jobs", "3");
			run(database, "drain", "JobRunr,db-scheduler-skip-locked,jobqueue-prefetch,db-scheduler-prefetch", out);
		}

		List<String[]> figures = Files.readAllLines(out).stream().map(line -> line.split("\t")).toList();
		assertThat(figures).extracting(f -> f[0]).containsOnly("enqueue", "bulk", "drain", "latency-other-jvm",
				"latency-same-jvm");
		assertThat(figures).filteredOn(f -> f[0].equals("enqueue") || f[0].equals("bulk"))
			.extracting(f -> f[1])
			.containsExactlyInAnyOrder("jobqueue", "jobqueue", "db-scheduler", "db-scheduler");
		assertThat(figures).filteredOn(f -> f[0].equals("drain"))
			.extracting(f -> f[1])
			.containsExactlyInAnyOrder("jobqueue", "db-scheduler", "JobRunr", "db-scheduler-skip-locked",
					"jobqueue-prefetch", "db-scheduler-prefetch");
		assertThat(figures).filteredOn(f -> f[0].equals("drain"))
			.allSatisfy(f -> assertThat(f[5]).contains("duplicates 0, lost 0"));
		assertThat(figures).filteredOn(f -> f[0].startsWith("latency"))
			.allSatisfy(f -> assertThat(f[5]).startsWith("3 of 3 jobs started"));
	}

	private static void runOnSqlite(String workload, String systems, String[] common, String... more) throws Exception {
		List<String> args = new java.util.ArrayList<>(List.of(workload, "--systems", systems));
		args.addAll(List.of(common));
		args.addAll(List.of(more));
		Options options = Options.parse(args.toArray(String[]::new));
		try (Database database = Database.open(options, 40)) {
			new Bench(options, database).run();
		}
	}

	private static void run(Database database, String workload, String systems, Path out, String... more)
			throws Exception {
		List<String> args = new java.util.ArrayList<>(List.of(workload, "--url", database.url(), "--systems", systems,
				"--jobs", "200", "--out", out.toString()));
		args.addAll(List.of(more));
		new Bench(Options.parse(args.toArray(String[]::new)), database).run();
	}
}
