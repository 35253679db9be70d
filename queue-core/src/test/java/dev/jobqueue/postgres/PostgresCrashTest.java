package dev.jobqueue.postgres;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.support.PostgresTestDatabase;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.WorkerProcess;
import dev.jobqueue.support.WorkerProcesses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two worker JVMs drain a queue; one, the maintenance node, is killed with SIGKILL half-way. Nothing is lost or
 * overlapped: the survivor takes the maintenance over and reaps the jobs the victim held.
 */
class PostgresCrashTest {

	private static final int JOBS = 2_000;

	private static final long LEASE_MILLIS = 2_000;

	private static PostgresTestDatabase database;

	@BeforeAll
	static void openDatabase() {
		database = new PostgresTestDatabase(4);
	}

	@AfterAll
	static void closeDatabase() {
		database.close();
	}

	@Test
	void aWorkerKilledMidDrainLosesNoJobAndNoJobRunsOnTwoJvmsAtOnce() throws Exception {
		database.reset();
		JdbcClient jdbc = JdbcClient.create(database.dataSource());
		jdbc.sql("DROP TABLE IF EXISTS test_execution").update();
		jdbc.sql("""
				CREATE TABLE test_execution (id bigserial PRIMARY KEY, job_id bigint NOT NULL, worker text NOT NULL,
				                             started_at bigint NOT NULL, finished_at bigint)""").update();
		JobQueue queue = new JdbcJobQueue(database.store(), QueueFixture.JSON, new HandlerRegistry(),
				RuntimeSettings.defaults(), JobListener.NONE, name -> {
				});
		queue.enqueueAll(IntStream.range(0, JOBS).mapToObj(i -> new NewJobRequest("work", new Greeting("job", 10)))
			.toList());

		try (WorkerProcesses workers = new WorkerProcesses()) {
			Process victim = workers.start(WorkerProcess.class, "victim", database.jdbcUrl(), "victim",
					String.valueOf(LEASE_MILLIS));
			// Started first, the victim holds the maintenance lease: the survivor must take it to reap.
			await().atMost(Duration.ofMinutes(1)).until(() -> maintainer(jdbc).startsWith(victim.pid() + "@"));
			workers.start(WorkerProcess.class, "survivor", database.jdbcUrl(), "survivor",
					String.valueOf(LEASE_MILLIS));
			await().atMost(Duration.ofMinutes(1)).until(() -> succeeded() >= JOBS / 4);
			// Mid-drain means mid-execution: kill while the victim has handlers running.
			freezeWithHandlersRunning(victim, jdbc);

			victim.destroyForcibly().waitFor();
			long killedAt = System.currentTimeMillis();

			await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250)).until(() -> succeeded() == JOBS);
			assertThat(victim.exitValue()).isEqualTo(137);
			assertThat(overlappingExecutions(jdbc, killedAt)).isEmpty();
			assertThat(inFlightOnVictim(jdbc)).as("executions cut short by the kill, run again by the survivor")
				.isPositive();
			assertThat(maintainer(jdbc)).as("the maintenance lease, taken over").doesNotStartWith(victim.pid() + "@");
			assertThat(jdbc.sql("SELECT count(DISTINCT job_id) FROM test_execution").query(Long.class).single())
				.isEqualTo(JOBS);
		}
	}

	/**
	 * Seen running and then killed, a 10 ms handler may well have finished in between on a busy machine.
	 * So the victim is frozen first (SIGSTOP) and looked at once the statements it had already sent have
	 * run: with handlers in flight it stays frozen for the kill; without, it carries on and is frozen
	 * again a moment later.
	 */
	private static void freezeWithHandlersRunning(Process victim, JdbcClient jdbc) {
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
			WorkerProcesses.signal(victim, "STOP");
			Thread.sleep(50);
			if (inFlightOnVictim(jdbc) > 0) {
				return true;
			}
			WorkerProcesses.signal(victim, "CONT");
			return false;
		});
	}

	/** The owner that holds the maintenance lease, its process id first; empty when none does. */
	private static String maintainer(JdbcClient jdbc) {
		return jdbc.sql("SELECT holder FROM jobqueue_maintenance").query(String.class).optional().orElse("");
	}

	private static long inFlightOnVictim(JdbcClient jdbc) {
		return jdbc.sql("SELECT count(*) FROM test_execution WHERE worker = 'victim' AND finished_at IS NULL")
			.query(Long.class)
			.single();
	}

	private static long succeeded() {
		return database.store()
			.telemetry().countByQueueAndState()
			.getOrDefault("default", Map.of())
			.getOrDefault(JobState.succeeded, 0L);
	}

	/** Pairs of executions of one job on two JVMs whose intervals overlap; a killed one ends at the kill. */
	private static List<String> overlappingExecutions(JdbcClient jdbc, long killedAt) {
		return jdbc.sql("""
				SELECT a.job_id || ': ' || a.worker || ' and ' || b.worker
				FROM test_execution a JOIN test_execution b ON a.job_id = b.job_id AND a.id < b.id
				WHERE a.worker <> b.worker
				  AND a.started_at < COALESCE(b.finished_at, :killedAt)
				  AND b.started_at < COALESCE(a.finished_at, :killedAt)""")
			.param("killedAt", killedAt)
			.query(String.class)
			.list();
	}
}
