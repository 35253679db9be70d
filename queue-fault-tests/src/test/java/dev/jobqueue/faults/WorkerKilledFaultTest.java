package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/** Scenario 1: SIGKILL one of three worker JVMs mid-drain, while it holds jobs. */
abstract class WorkerKilledFaultTest extends FaultScenario {

	private static final int JOBS = LONG ? 100_000 : 10_000;

	@Test
	void aWorkerKilledMidDrainLosesNothingAndItsTransactionalEffectsHappenOnce() throws Exception {
		// Half the jobs are transactional: their effect row commits with their completion. One in a hundred
		// works for a second, so that the kill can be timed to land while the victim holds one.
		enqueue(JOBS / 2, "probe", 5, WorkerKilledFaultTest::probe);
		enqueue(JOBS / 2, "probe-tx", 5, WorkerKilledFaultTest::probe);
		try (WorkerFleet fleet = fleet()) {
			List<WorkerJvm> workers = fleet.startAll("a", "b", "c");
			await().atMost(Duration.ofMinutes(3)).until(() -> finished() >= JOBS / 2);

			WorkerJvm victim = workers.get(0);
			freezeHolding(victim, () -> runningOn(victim) > 0);
			victim.kill();
			long cut = runningOn(victim);

			assertThat(cut).as("jobs the victim held when it was killed").isPositive();
			awaitDrained(Duration.ofMinutes(3));
			Invariants.Report report = checkInvariants(fleet, scenario(), JOBS, List.of(victim.pid()));
			report.assertSucceeded(JOBS);
			assertThat(count("SELECT count(*) FROM fault_effect")).as("effects of transactional jobs").isEqualTo(JOBS / 2);
			assertThat(count("SELECT count(DISTINCT job_id) FROM fault_effect")).isEqualTo(JOBS / 2);
			// At most those seen running just after the kill: the server may still commit a completion the
			// killed JVM had already sent.
			assertThat(report.reaped()).as("executions cut by the kill, reaped and run again")
				.isPositive()
				.isLessThanOrEqualTo(cut);
		}
	}

	/** How the invariants' log line names this scenario. */
	String scenario() {
		return "scenario 1 (SIGKILL one of three workers)";
	}

	private static Probe probe(int i) {
		return Probe.sleeping(i % 100 == 0 ? 1_000 : i % 10);
	}

	private long runningOn(WorkerJvm worker) {
		return database.jdbc()
			.sql("SELECT count(*) FROM jobqueue_job WHERE state = 'running' AND lease_owner LIKE :owner")
			.param("owner", worker.pid() + "@%")
			.query(Long.class)
			.single();
	}
}
