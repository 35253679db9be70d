package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.RepeatedTest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 18: a transaction held open (a report, a forgotten psql session) pins PostgreSQL's xmin horizon while two
 * workers run a steady stream of jobs. Dead row versions pile up that no vacuum may remove, and the queue's
 * statements slow down. The promise: a held xmin costs latency, never a duplicate. No job starts twice, nothing is
 * lost, and the workers run on. The lease is short (5 s, heartbeat every second, so the queue's statements time
 * out after a second): a stall of a few seconds puts the leases at risk.
 */
class PostgresHeldXminFaultTest extends FaultScenario {

	private static final Logger log = LoggerFactory.getLogger(PostgresHeldXminFaultTest.class);

	private static final Duration HOLD = Duration.ofSeconds(LONG ? 120 : 45);

	/** Jobs enqueued each 100 ms: 300 a second, before, during and after the hold. */
	private static final int PER_TICK = 30;

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}

	@RepeatedTest(5)
	void aTransactionHoldingTheXminHorizonCostsLatencyButNeverADuplicate() throws Exception {
		AtomicInteger enqueued = new AtomicInteger();
		ScheduledExecutorService producer = Executors.newSingleThreadScheduledExecutor();
		try (WorkerFleet fleet = new WorkerFleet(database.jdbcUrl(), Map.of("jobqueue.lease-duration", "5s",
				"jobqueue.heartbeat-interval", "1s"))) {
			List<WorkerJvm> workers = fleet.startAll("a", "b");
			producer.scheduleAtFixedRate(() -> enqueued.addAndGet(enqueue(PER_TICK, "probe", 1,
					i -> Probe.sleeping(i % 20)).size()), 0, 100, TimeUnit.MILLISECONDS);
			Thread.sleep(5_000);
			holdXmin(HOLD);
			Thread.sleep(5_000);
			producer.shutdown();
			assertThat(producer.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

			awaitDrained(Duration.ofMinutes(2));
			Invariants.Report report = checkInvariants(fleet, "scenario 18 (xmin held " + HOLD.toSeconds() + " s)",
					enqueued.get(), List.of());
			report.assertSucceeded(enqueued.get());
			assertThat(report.duplicates()).as("jobs started again").isZero();
			assertThat(report.claims()).as("starts").isEqualTo(enqueued.get());
			assertThat(workers).allMatch(WorkerJvm::isAlive);
		}
		finally {
			producer.shutdownNow();
		}
	}

	/**
	 * Holds a snapshot in a repeatable-read transaction for {@code hold}, logging each second what the workers'
	 * sessions wait on, so that a failure shows its cause.
	 */
	private void holdXmin(Duration hold) throws Exception {
		try (Connection holder = DriverManager.getConnection(database.jdbcUrl());
				Connection sampler = DriverManager.getConnection(database.jdbcUrl())) {
			holder.setAutoCommit(false);
			holder.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
			try (Statement snapshot = holder.createStatement()) {
				snapshot.executeQuery("SELECT count(*) FROM jobqueue_job").close();
			}
			long end = System.nanoTime() + hold.toNanos();
			while (System.nanoTime() < end) {
				Thread.sleep(1_000);
				log.info("xmin held: {}", waits(sampler));
			}
			holder.rollback();
		}
	}

	private static String waits(Connection sampler) throws Exception {
		StringBuilder waits = new StringBuilder();
		try (Statement statement = sampler.createStatement();
				ResultSet rows = statement.executeQuery("""
						SELECT coalesce(wait_event_type || ':' || wait_event, 'cpu') || ' ' || left(query, 50), count(*)
						FROM pg_stat_activity
						WHERE application_name LIKE 'fault-worker%' AND state = 'active'
						GROUP BY 1 ORDER BY 2 DESC""")) {
			while (rows.next()) {
				waits.append(rows.getLong(2)).append(" × ").append(rows.getString(1)).append("; ");
			}
		}
		try (Statement statement = sampler.createStatement();
				ResultSet rows = statement.executeQuery(
						"SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'jobqueue_job'")) {
			waits.append(rows.next() ? "dead rows " + rows.getLong(1) : "");
		}
		return waits.toString();
	}
}
