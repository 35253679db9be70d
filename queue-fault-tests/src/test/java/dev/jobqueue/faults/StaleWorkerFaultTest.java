package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 3: a worker frozen (SIGSTOP) while it holds a job, past its lease; another worker takes the
 * job over and finishes it; the first is thawed (SIGCONT) and finishes too. Its completion is fenced off.
 */
abstract class StaleWorkerFaultTest extends FaultScenario {

	private static final Duration WAIT = Duration.ofSeconds(90);

	@Test
	void aThawedStaleWorkersCompletionWritesNothingAndTheJobRunsNoThirdTime() throws Exception {
		// The probe ignores interrupts, so the stale worker really reaches its completion write.
		long job = enqueue(1, "probe", 5, i -> Probe.sleeping(3_000).ignoringInterrupts().recorded()).get(0);
		try (WorkerFleet fleet = fleet()) {
			WorkerJvm stale = fleet.start("stale").awaitStarted();
			// The probe has recorded its start: it sleeps in the handler, holding the job.
			await().atMost(WAIT).until(() -> executions(job) == 1);
			freezeHoldingNothing(stale);

			WorkerJvm rescuer = fleet.start("rescuer").awaitStarted();
			await().atMost(WAIT)
				.until(() -> count("SELECT count(*) FROM jobqueue_job WHERE state = 'succeeded'") == 1);
			stale.resume();

			String lostLease = "Job " + job + " (probe) attempt 1: lease";
			await("the stale worker's fenced completion").atMost(WAIT)
				.until(() -> stale.log().contains(lostLease));
			assertThat(fleet.fencedWrites()).as("completions fenced off").isEqualTo(1);
			// Give a wrongly accepted write or a third claim the time to show up before looking.
			Thread.sleep(1_500);

			assertThat(database.jdbc()
				.sql("SELECT pid FROM fault_execution WHERE job_id = :job AND finished_at IS NOT NULL ORDER BY id")
				.param("job", job)
				.query(Long.class)
				.list()).as("finished executions: the rescuer's, then the stale worker's")
				.containsExactlyInAnyOrder(rescuer.pid(), stale.pid());
			assertThat(executions(job)).as("executions of the job").isEqualTo(2);
			Invariants.Report report = checkInvariants(fleet, "scenario 3 (stale worker, SIGSTOP past its lease)", 1,
					List.of(stale.pid()));
			assertThat(report.claims()).isEqualTo(2);
			assertThat(report.reaped()).isEqualTo(1);
			assertThat(count("SELECT attempt FROM jobqueue_job")).isEqualTo(2);
		}
	}

	private long executions(long job) {
		return database.jdbc()
			.sql("SELECT count(*) FROM fault_execution WHERE job_id = :job")
			.param("job", job)
			.query(Long.class)
			.single();
	}
}
