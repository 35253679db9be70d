package dev.jobqueue.sqlite;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.RuntimeSettings;
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
 * Ordered groups on one SQLite file shared by three worker JVMs: the jobs of a concurrency key with limit 1
 * run one at a time, in enqueue order, whichever process claims them, and a failed attempt's retry keeps
 * its key's slot, so the next job of the key waits for it.
 */
class SqliteOrderedGroupsProcessTest {

	private static final int KEYS = 200;

	private static final int JOBS_PER_KEY = 50;

	private static final long LEASE_MILLIS = 7_000;

	private SqliteTestDatabase database;

	private JdbcClient jdbc;

	/** One execution of a job, as its handler recorded it: when it started and ended, on this host's clock. */
	record Step(long jobId, String key, int attempt, long startedAt, long finishedAt, boolean failed) {
	}

	@BeforeEach
	void openDatabase() {
		database = new SqliteTestDatabase(4);
		jdbc = JdbcClient.create(database.dataSource());
		jdbc.sql("""
				CREATE TABLE test_step (id INTEGER PRIMARY KEY, job_id INTEGER NOT NULL, attempt INTEGER NOT NULL,
				                        worker TEXT NOT NULL, started_at INTEGER NOT NULL,
				                        finished_at INTEGER NOT NULL, failed INTEGER NOT NULL)""").update();
	}

	@AfterEach
	void closeDatabase() {
		database.close();
	}

	@Test
	void threeWorkerJvmsRunEachKeysJobsOneAtATimeInEnqueueOrderDespiteRetries() throws Exception {
		List<Long> ids = enqueueInterleaved();
		try (WorkerProcesses processes = new WorkerProcesses()) {
			long start = System.nanoTime();
			List<String> workers = List.of("worker-1", "worker-2", "worker-3");
			for (String worker : workers) {
				processes.start(WorkerProcess.class, worker, database.jdbcUrl(), worker, String.valueOf(LEASE_MILLIS));
			}

			await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250))
				.until(() -> succeeded() == ids.size());
			double seconds = (System.nanoTime() - start) / 1e9;
			List<Step> steps = steps();
			System.out.printf("3 worker JVMs ran %d keys x %d jobs (%d executions, %d failed) in %.1f s%n", KEYS,
					JOBS_PER_KEY, steps.size(), steps.stream().filter(Step::failed).count(), seconds);

			assertThat(steps.stream().filter(step -> !step.failed()).map(Step::jobId).sorted().toList())
				.as("one successful execution per job").isEqualTo(ids);
			assertThat(steps).as("failed first attempts, one in ten").anyMatch(Step::failed);
			Map<String, List<Step>> byKey = steps.stream().collect(Collectors.groupingBy(Step::key));
			assertThat(byKey).hasSize(KEYS);
			byKey.forEach(SqliteOrderedGroupsProcessTest::assertOneAtATimeInEnqueueOrder);
			assertThat(processes.problems(workers)).isEmpty();
		}
	}

	/** Job after job of each key, key after key, so that neither the ids nor the claims group a key's jobs. */
	private List<Long> enqueueInterleaved() {
		JobQueue queue = new JdbcJobQueue(database.store(), QueueFixture.JSON, new HandlerRegistry(),
				RuntimeSettings.defaults(), JobListener.NONE, name -> {
				});
		List<NewJobRequest> requests = new ArrayList<>();
		for (int job = 0; job < JOBS_PER_KEY; job++) {
			for (int key = 0; key < KEYS; key++) {
				requests.add(new NewJobRequest("step", new Greeting("key-" + key, job % 3),
						EnqueueOptions.defaults().concurrencyKey("key-" + key)));
			}
		}
		return queue.enqueueAll(requests);
	}

	private static void assertOneAtATimeInEnqueueOrder(String key, List<Step> steps) {
		List<Step> byStart = steps.stream().sorted(Comparator.comparingLong(Step::startedAt)).toList();
		assertThat(byStart.stream().map(Step::jobId).distinct().toList()).as("first starts of %s", key)
			.isSorted()
			.hasSize(JOBS_PER_KEY);
		for (int i = 1; i < byStart.size(); i++) {
			assertThat(byStart.get(i).startedAt()).as("%s: %s starts after %s ended", key, byStart.get(i),
					byStart.get(i - 1)).isGreaterThanOrEqualTo(byStart.get(i - 1).finishedAt());
		}
	}

	private List<Step> steps() {
		return jdbc.sql("""
				SELECT s.job_id, j.concurrency_key, s.attempt, s.started_at, s.finished_at, s.failed
				FROM test_step s JOIN jobqueue_job j ON j.id = s.job_id
				ORDER BY s.id""")
			.query((row, n) -> new Step(row.getLong(1), row.getString(2), row.getInt(3), row.getLong(4),
					row.getLong(5), row.getBoolean(6)))
			.list();
	}

	/** Exact, by SQL of its own: the store's counts stop at JobCounts.FINISHED_CAP for finished states. */
	private long succeeded() {
		return JdbcClient.create(database.dataSource())
			.sql("SELECT count(*) FROM jobqueue_job WHERE queue = 'default' AND state = 'succeeded'")
			.query(Long.class)
			.single();
	}
}
