package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/**
 * Claims whose answers never reach the worker: the connection is cut right after a claim committed, for
 * three claims in ten. The jobs of such a claim run nowhere until their lease expires and the reaper gives
 * them back. No job may end dead for it: an attempt counts once a worker confirmed its claim (on MySQL, whose
 * claims confirm themselves, a claim that lost its commit's answer takes its confirmation back), and every
 * probe here succeeds as soon as its handler starts.
 */
abstract class LostClaimAnswerFaultTest extends FaultScenario {

	private static final int JOBS = LONG ? 10_000 : 2_000;

	private static final int MAX_ATTEMPTS = 3;

	@Test
	void noJobDiesBecauseTheNetworkAteTheAnswersOfItsClaims() throws Exception {
		enqueue(JOBS, "probe", MAX_ATTEMPTS, i -> Probe.sleeping(i % 20).recorded());
		try (WorkerFleet fleet = new WorkerFleet(database.jdbcUrl(), Map.of("fault.claim-answer-loss", "0.3"))) {
			List<WorkerJvm> workers = fleet.startAll("a", "b");

			awaitDrained(Duration.ofMinutes(3));

			Invariants.Report report = checkInvariants(fleet, "lost claim answers", JOBS,
					workers.stream().map(WorkerJvm::pid).toList());
			assertThat(count("""
					SELECT count(*) FROM jobqueue_job j
					WHERE j.state = 'dead' AND NOT EXISTS (SELECT 1 FROM fault_execution e WHERE e.job_id = j.id)"""))
				.as("jobs dead without their handler ever started").isZero();
			assertThat(count("""
					SELECT count(*) FROM fault_audit
					WHERE old_state = 'running' AND error LIKE '% before its worker confirmed the claim'""")).as(
					"leases that expired before their worker confirmed the claim").isPositive();
			report.assertSucceeded(JOBS);
		}
	}
}
