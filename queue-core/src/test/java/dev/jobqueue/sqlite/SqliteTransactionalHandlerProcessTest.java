package dev.jobqueue.sqlite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.SqliteTestDatabase;
import dev.jobqueue.support.WorkerProcess;
import dev.jobqueue.support.WorkerProcesses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two worker JVMs on one SQLite file run transactional handlers that work longer than a lease before they
 * write, beside a stream of fast jobs that this JVM enqueues meanwhile: no writer waits for the long
 * handlers, so no lease runs out, no job is claimed twice, and no enqueue waits anywhere near as long as
 * a long handler works.
 */
class SqliteTransactionalHandlerProcessTest {

	/** Longer than a heartbeat interval plus the 5 s a heartbeat may wait for another process's write lock. */
	private static final long LEASE_MILLIS = 7_000;

	private static final int LONG_JOBS = 4;

	private static final int LONG_JOB_MILLIS = (int) (LEASE_MILLIS * 3 / 2);

	private static final int FAST_JOBS = 250;

	private static final Duration FAST_JOB_INTERVAL = Duration.ofMillis(40);

	/** Far below a long handler's work: an enqueue that waited for one would take seconds. */
	private static final Duration ENQUEUE_BOUND = Duration.ofSeconds(2);

	private SqliteTestDatabase database;

	private JdbcClient jdbc;

	@BeforeEach
	void openDatabase() {
		database = new SqliteTestDatabase(4);
		jdbc = JdbcClient.create(database.dataSource());
		jdbc.sql("""
				CREATE TABLE test_execution (id INTEGER PRIMARY KEY, job_id INTEGER NOT NULL, worker TEXT NOT NULL,
				                             started_at INTEGER NOT NULL, finished_at INTEGER)""").update();
		jdbc.sql("CREATE TABLE test_account (balance INTEGER NOT NULL)").update();
		jdbc.sql("INSERT INTO test_account (balance) VALUES (0)").update();
	}

	@AfterEach
	void closeDatabase() {
		database.close();
	}

	@Test
	void longTransactionalHandlersStopNoOtherWriterSoNoJobIsReapedAndEnqueuesStayQuick() throws Exception {
		JobQueue queue = new JdbcJobQueue(database.store(), QueueFixture.JSON, new HandlerRegistry(), RetryPolicy.DEFAULT,
				JdbcJobQueue.DEFAULT_MAX_PAYLOAD_LENGTH, JobListener.NONE, name -> {
				});
		try (WorkerProcesses processes = new WorkerProcesses()) {
			List<String> workers = List.of("worker-1", "worker-2");
			for (String worker : workers) {
				processes.start(WorkerProcess.class, worker, database.jdbcUrl(), worker, String.valueOf(LEASE_MILLIS));
			}
			await().atMost(Duration.ofSeconds(60)).until(() -> workers.stream()
				.allMatch(worker -> lines(processes, worker).contains("worker " + worker + " started")));
			queue.enqueueAll(IntStream.range(0, LONG_JOBS)
				.mapToObj(i -> new NewJobRequest("long-work", new Greeting("long", LONG_JOB_MILLIS)))
				.toList());
			await().atMost(Duration.ofSeconds(30))
				.until(() -> count("SELECT count(*) FROM jobqueue_job WHERE state = 'running'") == LONG_JOBS);

			Duration slowestEnqueue = enqueueFastJobs(queue);

			await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
				.until(() -> count("SELECT count(*) FROM jobqueue_job WHERE state IN ('ready', 'running')") == 0);
			assertThat(slowestEnqueue).as("the slowest of %d enqueues", FAST_JOBS).isLessThan(ENQUEUE_BOUND);
			assertThat(jdbc.sql("""
					SELECT id || ' ' || kind || ' ' || state || ' attempt ' || attempt || ': ' || coalesce(last_error, '')
					FROM jobqueue_job WHERE state <> 'succeeded' OR attempt <> 1""").query(String.class).list())
				.as("jobs that did not succeed at their first claim (reaped, or failed)").isEmpty();
			assertThat(count("SELECT count(*) FROM test_execution")).as("executions, one per job")
				.isEqualTo(LONG_JOBS + FAST_JOBS);
			assertThat(count("SELECT balance FROM test_account")).as("one deposit per long job").isEqualTo(LONG_JOBS);
			assertThat(errors(processes, workers)).isEmpty();
		}
	}

	/** Enqueues the fast jobs one by one at a steady pace while the long ones run; returns the slowest enqueue. */
	private static Duration enqueueFastJobs(JobQueue queue) throws InterruptedException {
		long slowest = 0;
		for (int i = 0; i < FAST_JOBS; i++) {
			long start = System.nanoTime();
			queue.enqueue("work", new Greeting("fast", 1));
			slowest = Math.max(slowest, System.nanoTime() - start);
			// Paces the producer, which is what a test of latency under load needs; nothing waits for a state.
			Thread.sleep(FAST_JOB_INTERVAL.toMillis());
		}
		return Duration.ofNanos(slowest);
	}

	private long count(String sql) {
		return jdbc.sql(sql).query(Long.class).single();
	}

	private static List<String> errors(WorkerProcesses processes, List<String> names) {
		return names.stream()
			.flatMap(name -> lines(processes, name).stream().map(line -> name + ": " + line))
			.filter(line -> line.contains(" ERROR ") || line.contains(" WARN "))
			.toList();
	}

	private static List<String> lines(WorkerProcesses processes, String name) {
		try {
			return Files.readAllLines(processes.log(name));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}
}
