package dev.jobqueue.faults;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JdbcJobQueue;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.faults.app.Probe;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JobListener;
import dev.jobqueue.store.PostgresJobStore;
import tools.jackson.databind.json.JsonMapper;

/**
 * What every fault scenario shares: the database with its audit, emptied before each test; a
 * {@link JobQueue} in the test's own JVM to enqueue probes; the wait for a drained queue; the invariants.
 */
abstract class FaultScenario {

	/** {@code -Djobqueue.faults.long=true}: bigger drains and longer faults than CI runs. */
	static final boolean LONG = Boolean.getBoolean("jobqueue.faults.long");

	private static final Logger log = LoggerFactory.getLogger(FaultScenario.class);

	static FaultDatabase database;

	JobQueue queue;

	@BeforeAll
	static void openDatabase() {
		database = new FaultDatabase();
	}

	@AfterAll
	static void closeDatabase() {
		if (database != null) {
			database.close();
		}
	}

	@BeforeEach
	void emptyQueue() {
		database.reset();
		queue = new JdbcJobQueue(new PostgresJobStore(database.dataSource()), JsonMapper.builder().build(),
				new HandlerRegistry(), RetryPolicy.DEFAULT, JdbcJobQueue.DEFAULT_MAX_PAYLOAD_LENGTH, JobListener.NONE,
				name -> {
				});
	}

	/** Enqueues {@code count} probes made by {@code probe}, each with {@code maxAttempts}. */
	List<Long> enqueue(int count, String kind, int maxAttempts, IntFunction<Probe> probe) {
		EnqueueOptions options = EnqueueOptions.defaults().maxAttempts(maxAttempts);
		return queue.enqueueAll(IntStream.range(0, count)
			.mapToObj(i -> new NewJobRequest(kind, probe.apply(i), options))
			.toList());
	}

	long count(String sql) {
		return database.jdbc().sql(sql).query(Long.class).single();
	}

	long unfinished() {
		return count("SELECT count(*) FROM jobqueue_job WHERE state IN ('ready', 'running')");
	}

	long finished() {
		return count("SELECT count(*) FROM jobqueue_job WHERE state IN ('succeeded', 'dead')");
	}

	/** Waits until no job is ready or running. */
	void awaitDrained(Duration atMost) {
		await("the queue to drain").atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> unfinished() == 0);
	}

	Invariants.Report checkInvariants(String scenario, long jobs, List<Long> faultedPids) {
		Invariants.Report report = new Invariants(database.jdbc()).check(jobs, faultedPids);
		log.info("{}: invariants I1-I6 hold; {}", scenario, report);
		return report;
	}
}
