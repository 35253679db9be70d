package dev.jobqueue.sqlite;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
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
import dev.jobqueue.support.EnqueuerProcess;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.SqliteTestDatabase;
import dev.jobqueue.support.WorkerProcess;
import dev.jobqueue.support.WorkerProcesses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Several JVMs on one SQLite file: three workers drain a backlog while a fourth enqueues 200 jobs a
 * second. Every job ends succeeded, no busy or locked error surfaces, nothing is logged at ERROR, and the
 * file passes SQLite's integrity check afterwards.
 */
class SqliteMultiProcessTest {

	private static final int BACKLOG = 10_000;

	private static final int ENQUEUED_PER_SECOND = 200;

	private static final int ENQUEUED = 1_000;

	private static final int HANDLER_MILLIS = 1;

	private static final long LEASE_MILLIS = 3_000;

	private static SqliteTestDatabase database;

	private JdbcClient jdbc;

	@BeforeAll
	static void openDatabase() {
		database = new SqliteTestDatabase(4);
	}

	@AfterAll
	static void closeDatabase() {
		database.close();
	}

	@BeforeEach
	void backlog() {
		database.reset();
		jdbc = JdbcClient.create(database.dataSource());
		jdbc.sql("DROP TABLE IF EXISTS test_execution").update();
		jdbc.sql("""
				CREATE TABLE test_execution (id INTEGER PRIMARY KEY, job_id INTEGER NOT NULL, worker TEXT NOT NULL,
				                             started_at INTEGER NOT NULL, finished_at INTEGER)""").update();
		JobQueue queue = new JdbcJobQueue(database.store(), QueueFixture.JSON, new HandlerRegistry(),
				RuntimeSettings.defaults(), JobListener.NONE, name -> {
				});
		for (int from = 0; from < BACKLOG; from += 1000) {
			queue.enqueueAll(IntStream.range(from, from + 1000)
				.mapToObj(i -> new NewJobRequest("work", new Greeting("backlog", HANDLER_MILLIS)))
				.toList());
		}
	}

	@Test
	void threeWorkerJvmsDrainTheBacklogWhileAFourthEnqueuesEachJobRunningExactlyOnce() throws Exception {
		try (WorkerProcesses processes = new WorkerProcesses()) {
			long start = System.nanoTime();
			Process enqueuer = startEnqueuer(processes, ENQUEUED);
			List<String> workers = List.of("worker-1", "worker-2", "worker-3");
			for (String worker : workers) {
				startWorker(processes, worker);
			}

			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
				.until(() -> succeeded() == BACKLOG + ENQUEUED);
			double seconds = (System.nanoTime() - start) / 1e9;
			System.out.printf("3 worker JVMs ran %d jobs (%d enqueued meanwhile at %d/s) in %.1f s: %.0f jobs/s%n",
					BACKLOG + ENQUEUED, ENQUEUED, ENQUEUED_PER_SECOND, seconds, (BACKLOG + ENQUEUED) / seconds);

			assertThat(enqueuer.waitFor()).isZero();
			assertThat(jdbc.sql("SELECT count(*) FROM test_execution").query(Long.class).single())
				.as("executions, one per job").isEqualTo(BACKLOG + ENQUEUED);
			assertThat(jdbc.sql("SELECT count(DISTINCT job_id) FROM test_execution").query(Long.class).single())
				.isEqualTo(BACKLOG + ENQUEUED);
			assertThat(processes.problems(Stream.concat(workers.stream(), Stream.of("enqueuer")).toList())).isEmpty();
		}
		assertThat(integrityCheck()).isEqualTo("ok");
	}

	@Test
	void aWorkerJvmKilledMidDrainLosesNoJobAndNoJobRunsOnTwoJvmsAtOnce() throws Exception {
		try (WorkerProcesses processes = new WorkerProcesses()) {
			Process enqueuer = startEnqueuer(processes, ENQUEUED);
			Process victim = startWorker(processes, "victim");
			startWorker(processes, "survivor-1");
			startWorker(processes, "survivor-2");
			// The victim must be working when it dies: on a loaded machine its JVM may start after the
			// others have run a quarter of the backlog.
			await().atMost(Duration.ofSeconds(60))
				.until(() -> succeeded() >= BACKLOG / 4 && executionsStartedBy("victim") > 0);

			List<Long> seenHeld = freezeHoldingJobs(victim);
			victim.destroyForcibly().waitFor();
			long killedAt = System.currentTimeMillis();
			// Read again once the victim is dead: a commit it was writing when frozen can still land (its frames
			// were in the WAL, and SQLite recovers a WAL index left half written). A completion's then ran those
			// jobs to their end, once; a claim's leaves the victim holding jobs it never started. The promise is
			// about the jobs it held when it died, whichever.
			List<Long> held = jobsHeldBy(victim);
			assertThat(held).as("jobs the victim held when it died").isNotEmpty();

			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
				.until(() -> succeeded() == BACKLOG + ENQUEUED);
			assertThat(victim.exitValue()).isEqualTo(137);
			assertThat(enqueuer.waitFor()).isZero();
			assertThat(overlappingExecutions(killedAt)).isEmpty();
			// A claim the victim had not yet confirmed gets its attempt back, so only the error tells.
			assertThat(jdbc.sql("SELECT id FROM jobqueue_job WHERE state = 'succeeded' AND errors LIKE '%lease expired%'")
				.query(Long.class)
				.list()).as("jobs the victim held, run again once their lease expired").containsAll(held);
			assertThat(seenHeld.stream().filter(id -> !held.contains(id)).map(this::workersThatFinished))
				.as("jobs whose completion the victim was committing when frozen")
				.allSatisfy(workers -> assertThat(workers).containsExactly("victim"));
			assertThat(jdbc.sql("SELECT count(DISTINCT job_id) FROM test_execution").query(Long.class).single())
				.isEqualTo(BACKLOG + ENQUEUED);
			assertThat(processes.problems(List.of("survivor-1", "survivor-2", "enqueuer"))).isEmpty();
		}
		assertThat(integrityCheck()).isEqualTo("ok");
	}

	@Test
	void aJobEnqueuedByAProcessThatHaltsRightAfterItsCommitIsStillThereAndRuns() throws Exception {
		database.reset();
		try (WorkerProcesses processes = new WorkerProcesses()) {
			Process enqueuer = startEnqueuer(processes, 1);
			assertThat(enqueuer.waitFor()).isZero();
			long id = Long.parseLong(processes.lines("enqueuer").stream()
				.filter(line -> line.startsWith("enqueued "))
				.findFirst()
				.orElseThrow()
				.substring("enqueued ".length()));
			assertThat(database.store().reads().find(id)).hasValueSatisfying(job -> assertThat(job.state()).isEqualTo(JobState.ready));

			startWorker(processes, "worker");

			await().atMost(Duration.ofSeconds(30))
				.until(() -> database.store().reads().find(id).orElseThrow().state() == JobState.succeeded);
		}
		assertThat(integrityCheck()).isEqualTo("ok");
	}

	private static Process startWorker(WorkerProcesses processes, String name) throws IOException {
		return processes.start(WorkerProcess.class, name, database.jdbcUrl(), name, String.valueOf(LEASE_MILLIS));
	}

	private static Process startEnqueuer(WorkerProcesses processes, int count) throws IOException {
		return processes.start(EnqueuerProcess.class, "enqueuer", database.jdbcUrl(),
				String.valueOf(ENQUEUED_PER_SECOND), String.valueOf(count), String.valueOf(HANDLER_MILLIS));
	}

	/**
	 * With 1 ms handlers, a worker seen holding jobs may have finished them all before a kill lands. So
	 * the victim is frozen first (SIGSTOP) and looked at: holding jobs, it stays frozen for the kill, and
	 * the jobs it holds are returned; holding none, it carries on and is frozen again a moment later.
	 */
	private List<Long> freezeHoldingJobs(Process victim) {
		List<Long> held = new ArrayList<>();
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
			WorkerProcesses.signal(victim, "STOP");
			held.addAll(jobsHeldBy(victim));
			if (!held.isEmpty()) {
				return true;
			}
			WorkerProcesses.signal(victim, "CONT");
			return false;
		});
		return held;
	}

	private List<Long> jobsHeldBy(Process worker) {
		return jdbc.sql("SELECT id FROM jobqueue_job WHERE state = 'running' AND lease_owner LIKE :pid")
			.param("pid", worker.pid() + "@%")
			.query(Long.class)
			.list();
	}

	/** The workers that ran the job to its end, one per execution. */
	private List<String> workersThatFinished(long jobId) {
		return jdbc.sql("SELECT worker FROM test_execution WHERE job_id = :id AND finished_at IS NOT NULL")
			.param("id", jobId)
			.query(String.class)
			.list();
	}

	private long executionsStartedBy(String worker) {
		return jdbc.sql("SELECT count(*) FROM test_execution WHERE worker = :worker")
			.param("worker", worker)
			.query(Long.class)
			.single();
	}

	/** Counted exactly: the store's counts stop at JobCounts.FINISHED_CAP, below this test's 11,000 jobs. */
	private static long succeeded() {
		return JdbcClient.create(database.dataSource())
			.sql("SELECT count(*) FROM jobqueue_job WHERE queue = 'default' AND state = 'succeeded'")
			.query(Long.class)
			.single();
	}

	/** Pairs of executions of one job on two JVMs whose intervals overlap; a killed one ends at the kill. */
	private List<String> overlappingExecutions(long killedAt) {
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

	private static String integrityCheck() {
		return JdbcClient.create(database.dataSource()).sql("PRAGMA integrity_check").query(String.class).single();
	}
}
