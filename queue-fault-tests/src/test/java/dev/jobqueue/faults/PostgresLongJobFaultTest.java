package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/** Scenario 4: a job that runs five times longer than its lease keeps it by heartbeat and runs once. */
class PostgresLongJobFaultTest extends FaultScenario {

	@Test
	void aJobFiveTimesLongerThanItsLeaseKeepsItByHeartbeatAndRunsOnce() throws Exception {
		// Lease 2 s, heartbeat every 500 ms, and a second worker ready to take over any lapsed lease.
		long job = enqueue(1, "probe", 5, i -> Probe.sleeping(10_000).recorded()).get(0);
		try (WorkerFleet fleet = new WorkerFleet(database.jdbcUrl())) {
			fleet.startAll("first", "second");
			awaitDrained(Duration.ofSeconds(60));

			assertThat(count("SELECT count(*) FROM fault_execution")).as("executions").isEqualTo(1);
			long heartbeats = count("""
					SELECT count(*) FROM fault_audit
					WHERE old_state = 'running' AND new_state = 'running' AND new_expires > old_expires""");
			assertThat(heartbeats).as("lease extensions over 10 s at one per 500 ms").isGreaterThanOrEqualTo(10);
			Invariants.Report report = checkInvariants("scenario 4 (job 5x longer than its lease)", 1, List.of());
			report.assertSucceeded(1);
			assertThat(report.claims()).isEqualTo(1);
			assertThat(report.reaped()).isZero();
			assertThat(database.jdbc().sql("SELECT state FROM jobqueue_job WHERE id = :id").param("id", job)
				.query(String.class).single()).isEqualTo("succeeded");
		}
	}
}
