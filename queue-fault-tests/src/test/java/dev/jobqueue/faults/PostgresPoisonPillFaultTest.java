package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 6: a job that halts its JVM every time it runs, with the workers under a restart loop. It is
 * charged an attempt each time its lease is reaped and ends dead after its max attempts; other jobs keep
 * flowing meanwhile.
 */
class PostgresPoisonPillFaultTest extends FaultScenario {
	private static final int MAX_ATTEMPTS = 3;

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}

	@Test
	void aJobThatHaltsItsJvmEveryTimeEndsDeadAfterMaxAttemptsWhileOthersFlow() throws Exception {
		long poison = enqueue(1, "probe", MAX_ATTEMPTS, i -> Probe.sleeping(0).halting()).get(0);
		List<Long> others = enqueue(300, "probe", 5, i -> Probe.sleeping(20));
		try (WorkerFleet fleet = new WorkerFleet(database.jdbcUrl());
				RestartLoop first = new RestartLoop(fleet, "first");
				RestartLoop second = new RestartLoop(fleet, "second")) {
			awaitDrained(Duration.ofMinutes(2));
			List<WorkerJvm> halted = fleet.started().stream().filter(worker -> !worker.isAlive()).toList();

			assertThat(database.jdbc().sql("SELECT state || ' after ' || attempt FROM jobqueue_job WHERE id = :id")
				.param("id", poison).query(String.class).single()).isEqualTo("dead after " + MAX_ATTEMPTS);
			assertThat(halted).as("JVMs halted by the poison pill").hasSize(MAX_ATTEMPTS);
			for (WorkerJvm worker : halted) {
				assertThat(worker.waitForExit()).as("exit status of %s", worker).isEqualTo(99);
			}
			Invariants.Report report = checkInvariants(fleet, "scenario 6 (poison pill halting its JVM, restart loop)",
					others.size() + 1, halted.stream().map(WorkerJvm::pid).toList());
			report.assertSucceeded(others.size());
			assertThat(report.dead()).isEqualTo(1);
		}
	}
}
