package dev.jobqueue.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class OptionsTest {

	private static final String POSTGRES = "jdbc:postgresql://localhost/bench";

	@Test
	void defaultsToPostgresqlAndTheIssuesSizes() {
		Options options = Options.parse(new String[] { "all", "--url", POSTGRES });
		assertThat(options.database()).isEqualTo("postgresql");
		assertThat(options.systems()).containsExactly("jobqueue", "db-scheduler", "JobRunr");
		assertThat(options.jobs()).isEqualTo(20_000);
		assertThat(options.drainWarmUpJobs()).isEqualTo(1_000);
		assertThat(options.drainTimeout()).isEqualTo(Duration.ofSeconds(200));
		assertThat(options.soakVacuum()).isNull();
		assertThat(options.floodJobs()).isEqualTo(50_000);
		assertThat(options.finishedJobs()).isEqualTo(1_000_000);
	}

	@Test
	void sqliteWithoutAUrlMeansAFreshTemporaryFile() {
		Options options = Options.parse(new String[] { "drain", "--database", "sqlite" });
		assertThat(options.sqlite()).isTrue();
		assertThat(options.url()).isNull();
	}

	@Test
	void infersSqliteFromTheUrl() {
		assertThat(Options.parse(new String[] { "drain", "--url", "jdbc:sqlite:/tmp/q.db" }).sqlite()).isTrue();
	}

	@Test
	void infersMysqlFromEitherDriversUrl() {
		assertThat(Options.parse(new String[] { "drain", "--url", "jdbc:mariadb://localhost/bench" }).database())
			.isEqualTo("mysql");
		assertThat(Options.parse(new String[] { "drain", "--url", "jdbc:mysql://localhost/bench" }).database())
			.isEqualTo("mysql");
	}

	@Test
	void runsDbSchedulerWithSkipLockedOnMysqlOnlyWhenNamed() {
		String mariadb = "jdbc:mariadb://localhost/bench";
		assertThat(Options.parse(new String[] { "drain", "--url", mariadb }).systems()).containsExactly("jobqueue",
				"db-scheduler", "JobRunr");
		assertThat(Options.parse(new String[] { "drain", "--url", mariadb, "--systems",
				"db-scheduler,db-scheduler-skip-locked" }).systems()).containsExactly("db-scheduler",
						"db-scheduler-skip-locked");
	}

	@Test
	void runsJobqueueWithAPrefetchOnlyWhenNamedOnAnyDatabase() {
		assertThat(Options.parse(new String[] { "drain", "--url", POSTGRES }).systems())
			.doesNotContain(JobqueueContender.PREFETCH_VARIANT);
		assertThat(Options.parse(new String[] { "drain", "--database", "sqlite", "--systems",
				"jobqueue,jobqueue-prefetch" }).systems()).containsExactly("jobqueue", "jobqueue-prefetch");
	}

	@Test
	void runsDbSchedulerWithALineOfFetchedExecutionsWhereItHasLockAndFetchOnly() {
		assertThat(Options.parse(new String[] { "drain", "--url", POSTGRES, "--systems", "db-scheduler-prefetch" })
			.systems()).containsExactly("db-scheduler-prefetch");
		assertRejected("db-scheduler-prefetch runs on PostgreSQL and MySQL/MariaDB only", "drain", "--database",
				"sqlite", "--systems", "db-scheduler-prefetch");
	}

	@Test
	void readsTheTimeoutAndVacuumOptions() {
		Options options = Options.parse(new String[] { "soak", "--url", POSTGRES, "--soak-vacuum-seconds", "30",
				"--drain-timeout-seconds", "90" });
		assertThat(options.soakVacuum()).isEqualTo(Duration.ofSeconds(30));
		assertThat(options.drainTimeout()).isEqualTo(Duration.ofSeconds(90));
	}

	@Test
	void warmsUpTheDrainWithAsManyJobsAsAskedAndNoMoreThanItDrainsByDefault() {
		assertThat(Options.parse(new String[] { "drain", "--url", POSTGRES, "--drain-warm-up-jobs", "20000" })
			.drainWarmUpJobs()).isEqualTo(20_000);
		assertThat(Options.parse(new String[] { "drain", "--url", POSTGRES, "--jobs", "300" }).drainWarmUpJobs())
			.isEqualTo(300);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Options.parse(new String[] { "drain", "--url", POSTGRES, "--drain-warm-up-jobs", "0" }))
			.withMessageContaining("--drain-warm-up-jobs must be at least 1");
	}

	@Test
	void readsTheFairnessFloodSize() {
		assertThat(Options.parse(new String[] { "fairness", "--url", POSTGRES, "--flood-jobs", "5000" }).floodJobs())
			.isEqualTo(5000);
	}

	@Test
	void readsTheNodesWorkloadsSizes() {
		Options defaults = Options.parse(new String[] { "nodes", "--url", POSTGRES });
		assertThat(defaults.nodes()).containsExactly(1, 2, 4);
		assertThat(defaults.parkedJobs()).isEqualTo(200_000);
		assertThat(defaults.steadySeconds()).isEqualTo(15);
		assertThat(Options.parse(new String[] { "nodes", "--url", POSTGRES, "--nodes", "1,8" }).nodes())
			.containsExactly(1, 8);
	}

	@Test
	void rejectsMistakesNamingWhatIsAccepted() {
		assertRejected("first argument must be a workload", "drian");
		assertRejected("--database must be one of [postgresql, sqlite, mysql], was oracle", "drain", "--database",
				"oracle");
		assertRejected("--database mysql does not match the --url", "drain", "--database", "mysql", "--url", POSTGRES);
		assertRejected("--database sqlite does not match the --url", "drain", "--database", "sqlite", "--url", POSTGRES);
		assertRejected("the soak workload runs on PostgreSQL only", "soak", "--database", "sqlite");
		assertRejected("the ceiling workload runs on PostgreSQL only", "ceiling", "--database", "sqlite");
		assertRejected("the fairness workload runs on PostgreSQL only", "fairness", "--database", "sqlite");
		assertRejected("the ceiling workload runs on PostgreSQL only; on mysql run enqueue, bulk, drain", "ceiling",
				"--url", "jdbc:mariadb://localhost/bench");
		assertRejected("unknown system 'sidekiq'", "drain", "--url", POSTGRES, "--systems", "jobqueue,sidekiq");
		assertRejected("db-scheduler-skip-locked runs on MySQL/MariaDB only", "drain", "--url", POSTGRES, "--systems",
				"db-scheduler-skip-locked");
		assertRejected("--jobs must be a whole number, was 1e6", "drain", "--url", POSTGRES, "--jobs", "1e6");
		assertRejected("--jobs must be at least 1, was 0", "drain", "--url", POSTGRES, "--jobs", "0");
		assertRejected("unknown option --job;", "drain", "--url", POSTGRES, "--job", "5");
		assertRejected("expected --name value pairs", "drain", "--url");
		assertRejected("the nodes workload runs on PostgreSQL only", "nodes", "--database", "sqlite");
		assertRejected("--nodes must be at least 1, was 0", "nodes", "--url", POSTGRES, "--nodes", "1,0");
		assertRejected("--nodes must be a whole number, was two", "nodes", "--url", POSTGRES, "--nodes", "two");
		assertRejected("--soak-vacuum-seconds applies to the soak workload only", "drain", "--url", POSTGRES,
				"--soak-vacuum-seconds", "30");
	}

	private static void assertRejected(String message, String... args) {
		assertThatIllegalArgumentException().isThrownBy(() -> Options.parse(args)).withMessageContaining(message);
	}
}
