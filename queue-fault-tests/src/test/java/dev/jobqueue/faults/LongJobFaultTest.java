package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/** Scenario 4: a job that runs five times longer than its lease keeps it by heartbeat and runs once. */
abstract class LongJobFaultTest extends FaultScenario {

	@Test
	void aJobFiveTimesLongerThanItsLeaseKeepsItByHeartbeatAndRunsOnce() throws Exception {
		// A second worker stands ready to take over any lapsed lease.
		Duration runs = database.lease().multipliedBy(5);
		long job = enqueue(1, "probe", 5, i -> Probe.sleeping(runs.toMillis()).recorded()).get(0);
		try (WorkerFleet fleet = fleet()) {
			fleet.startAll("first", "second");
			awaitDrained(runs.plusSeconds(90));

			assertThat(count("SELECT count(*) FROM fault_execution")).as("executions").isEqualTo(1);
			long heartbeats = count("""
					SELECT count(*) FROM fault_audit
					WHERE old_state = 'running' AND new_state = 'running' AND new_expires > old_expires""");
			// At least half the heartbeats due: the lease is extended all along, not just once or twice.
			assertThat(heartbeats).as("lease extensions over " + runs + " at one per " + database.heartbeat())
				.isGreaterThanOrEqualTo(runs.dividedBy(database.heartbeat()) / 2);
			Invariants.Report report = checkInvariants(fleet, "scenario 4 (job 5x longer than its lease)", 1, List.of());
			report.assertSucceeded(1);
			assertThat(report.claims()).isEqualTo(1);
			assertThat(report.reaped()).isZero();
			assertThat(database.jdbc().sql("SELECT state FROM jobqueue_job WHERE id = :id").param("id", job)
				.query(String.class).single()).isEqualTo("succeeded");
		}
	}
}
