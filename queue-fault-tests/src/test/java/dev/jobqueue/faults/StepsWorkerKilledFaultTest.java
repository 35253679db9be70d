package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 20: three workers run resumable jobs of three steps each; one is SIGKILLed while it holds jobs between
 * and inside steps. A step recorded is never run again (the handler's steps check, and fail their job if it is), no
 * job is lost, and each job ends with its three steps recorded once.
 */
abstract class StepsWorkerKilledFaultTest extends FaultScenario {

	private static final int JOBS = LONG ? 10_000 : 1_000;

	@Test
	void aWorkerKilledBetweenStepsLosesNoJobAndNoRecordedStepRunsAgain() throws Exception {
		// One job in twenty works 400 ms per step, so that the kill lands while the victim is between its steps.
		enqueue(JOBS, "steps", 10, i -> Probe.sleeping(i % 20 == 0 ? 400 : i % 5));
		try (WorkerFleet fleet = fleet()) {
			List<WorkerJvm> workers = fleet.startAll("a", "b", "c");
			await().atMost(Duration.ofMinutes(3)).until(() -> finished() >= JOBS / 3);

			WorkerJvm victim = workers.get(0);
			freezeHolding(victim, () -> stepsRecordedOf(runningIdsOn(victim)) > 0);
			List<Long> cut = runningIdsOn(victim);
			long stepsOfCut = stepsRecordedOf(cut);
			victim.kill();

			awaitDrained(Duration.ofMinutes(3));
			Invariants.Report report = checkInvariants(fleet, "scenario 20 (SIGKILL between resumable steps)", JOBS,
					List.of(victim.pid()));
			report.assertSucceeded(JOBS);
			assertThat(count("SELECT count(*) FROM jobqueue_job_step")).as("steps recorded").isEqualTo(3L * JOBS);
			assertThat(report.reaped()).as("executions cut by the kill, reaped and resumed after their recorded steps")
				.isPositive()
				.isLessThanOrEqualTo(cut.size());
			assertThat(stepsOfCut).as("steps the cut jobs had recorded before the kill").isPositive();
		}
	}

	private long stepsRecordedOf(List<Long> jobs) {
		return jobs.stream()
			.mapToLong(id -> database.jdbc().sql("SELECT count(*) FROM jobqueue_job_step WHERE job_id = :id")
				.param("id", id)
				.query(Long.class)
				.single())
			.sum();
	}
}
