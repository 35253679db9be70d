package dev.jobqueue.faults;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.faults.app.Probe;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import tools.jackson.databind.json.JsonMapper;

import static org.awaitility.Awaitility.await;

/**
 * What every fault scenario shares: the database with its audit, opened once per test class by
 * {@link #newDatabase()} and emptied before each test; a {@link JobQueue} in the test's own JVM to
 * enqueue probes; workers timed for that database; the wait for a drained queue; the invariants.
 */
@TestInstance(Lifecycle.PER_CLASS)
abstract class FaultScenario {

	/** {@code -Djobqueue.faults.long=true}: bigger drains and longer faults than CI runs. */
	static final boolean LONG = Boolean.getBoolean("jobqueue.faults.long");

	private static final Logger log = LoggerFactory.getLogger(FaultScenario.class);

	FaultDatabase database;

	JobQueue queue;

	/** The database this scenario runs on. */
	abstract FaultDatabase newDatabase();

	@BeforeAll
	void openDatabase() {
		database = newDatabase();
	}

	@AfterAll
	void closeDatabase() {
		if (database != null) {
			database.close();
		}
	}

	@BeforeEach
	void emptyQueue() {
		database.reset();
		queue = new JdbcJobQueue(database.store(), JsonMapper.builder().build(),
				new HandlerRegistry(), RuntimeSettings.defaults(), JobListener.NONE,
				name -> {
				});
	}

	/** Worker JVMs on this database, with its lease and heartbeat and the fleet's other fast timings. */
	WorkerFleet fleet() throws IOException {
		return fleet(name -> database.jdbcUrl(), Map.of());
	}

	/**
	 * Worker JVMs as {@link #fleet()} has them, each reaching the database as {@code databases} says, with
	 * {@code more} properties.
	 */
	WorkerFleet fleet(WorkerFleet.WorkerDatabases databases, Map<String, String> more) throws IOException {
		Map<String, String> properties = new HashMap<>(more);
		properties.put("jobqueue.lease-duration", database.lease().toMillis() + "ms");
		properties.put("jobqueue.heartbeat-interval", database.heartbeat().toMillis() + "ms");
		return new WorkerFleet(databases, properties);
	}

	/** Enqueues {@code count} probes made by {@code probe}, each with {@code maxAttempts}. */
	List<Long> enqueue(int count, String kind, int maxAttempts, IntFunction<Probe> probe) {
		EnqueueOptions options = EnqueueOptions.defaults().maxAttempts(maxAttempts);
		return queue.enqueueAll(IntStream.range(0, count)
			.mapToObj(i -> new NewJobRequest(kind, probe.apply(i), options))
			.toList());
	}

	/** Enqueues probes as {@link #enqueue(int, String, int, IntFunction)} does, each with its concurrency key. */
	List<Long> enqueue(int count, String kind, int maxAttempts, IntFunction<Probe> probe, IntFunction<String> key) {
		EnqueueOptions options = EnqueueOptions.defaults().maxAttempts(maxAttempts);
		return queue.enqueueAll(IntStream.range(0, count)
			.mapToObj(i -> new NewJobRequest(kind, probe.apply(i), options.concurrencyKey(key.apply(i))))
			.toList());
	}

	long count(String sql) {
		return database.jdbc().sql(sql).query(Long.class).single();
	}

	long unfinished() {
		return count("SELECT count(*) FROM jobqueue_job WHERE state IN ('waiting', 'blocked', 'ready', 'running')");
	}

	long finished() {
		return count("SELECT count(*) FROM jobqueue_job WHERE state IN ('succeeded', 'dead')");
	}

	/** Waits until no job is ready or running. */
	void awaitDrained(Duration atMost) {
		await("the queue to drain").atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> unfinished() == 0);
	}

	/**
	 * Freezes {@code worker} (SIGSTOP) at a moment {@code holding} is true of it, once it holds a long job: a
	 * worker seen holding work and then killed may have finished that work in between, so it is frozen, looked
	 * at, and let go and frozen again a moment later if it has moved on. It is left frozen, for the caller's kill.
	 */
	void freezeHolding(WorkerJvm worker, Callable<Boolean> holding) {
		awaitHoldingALongJob(worker);
		await(worker + " frozen holding work").atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> {
				worker.pause();
				if (holding.call()) {
					return true;
				}
				worker.resume();
				return false;
			});
	}

	/** Waits until the worker holds a job it already held 100 ms earlier: a long job, likely still running. */
	private void awaitHoldingALongJob(WorkerJvm worker) {
		Set<Long> earlier = new HashSet<>();
		await("the victim to hold a long job").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
			.until(() -> {
				List<Long> now = runningIdsOn(worker);
				boolean held = now.stream().anyMatch(earlier::contains);
				earlier.clear();
				earlier.addAll(now);
				return held;
			});
	}

	List<Long> runningIdsOn(WorkerJvm worker) {
		return database.jdbc()
			.sql("SELECT id FROM jobqueue_job WHERE state = 'running' AND lease_owner LIKE :owner")
			.param("owner", worker.pid() + "@%")
			.query(Long.class)
			.list();
	}

	/** Executions on {@code pid} that recorded a start in {@code fault_execution} and no end. */
	long unfinishedExecutionsOn(long pid) {
		return database.jdbc()
			.sql("SELECT count(*) FROM fault_execution WHERE finished_at IS NULL AND pid = :pid")
			.param("pid", pid)
			.query(Long.class)
			.single();
	}

	/**
	 * SIGSTOP at a moment the worker holds no transaction or lock: frozen inside one, it would stop every
	 * other process (SQLite's write lock, PostgreSQL's row locks), not just itself.
	 */
	void freezeHoldingNothing(WorkerJvm worker) {
		await(worker + " frozen holding nothing in the database").atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> {
				worker.pause();
				if (database.holdsNothing(worker.pid())) {
					return true;
				}
				worker.resume();
				return false;
			});
	}

	/** Checks I1–I6 and logs what the drain came to, with the writes the workers found fenced off. */
	Invariants.Report checkInvariants(WorkerFleet fleet, String scenario, long jobs, List<Long> faultedPids) {
		Invariants.Report report = new Invariants(database).check(jobs, faultedPids);
		log.info("{}: invariants I1-I6 hold; {} duplicates={} fenced={}", scenario, report, report.duplicates(),
				fleet.fencedWrites());
		return report;
	}
}
