package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 13: three workers drain ordered groups (a concurrency key per group, limit 1); one is SIGKILLed
 * while it holds jobs of some groups. Those groups wait for the reaper, then carry on in order.
 */
abstract class OrderedGroupsWorkerKilledFaultTest extends FaultScenario {

	private static final int KEYS = 100;

	private static final int JOBS_PER_KEY = 20;

	private static final int JOBS = KEYS * JOBS_PER_KEY;

	@Test
	void groupsHeldByAKilledWorkerCarryOnInOrderWithNoTwoExecutionsOfAGroupAtOnce() throws Exception {
		// Job after job of each group, group after group, so that neither the ids nor the claims group a key's
		// jobs. One in 47 works for a second, so that the kill can be timed to land while the victim holds one.
		enqueue(JOBS, "probe", 5, i -> Probe.sleeping(i % 47 == 0 ? 1_000 : i % 10).recorded(),
				i -> "group-" + i % KEYS);
		try (WorkerFleet fleet = fleet()) {
			List<WorkerJvm> workers = fleet.startAll("a", "b", "c");
			await().atMost(Duration.ofMinutes(3)).until(() -> finished() >= JOBS / 4);

			WorkerJvm victim = workers.get(0);
			freezeHolding(victim, () -> unfinishedExecutionsOn(victim.pid()) > 0);
			victim.kill();
			long cut = runningIdsOn(victim).size();

			awaitDrained(Duration.ofMinutes(3));
			Invariants.Report report = checkInvariants(fleet, "scenario 13 (SIGKILL a worker holding ordered groups)",
					JOBS, List.of(victim.pid()));
			report.assertSucceeded(JOBS);
			assertThat(report.reaped()).as("executions cut by the kill, reaped and run again")
				.isPositive()
				.isLessThanOrEqualTo(cut);
			assertThat(count("SELECT count(DISTINCT job_id) FROM fault_execution WHERE finished_at IS NOT NULL"))
				.as("jobs with a finished execution").isEqualTo(JOBS);
			assertThat(unfinishedExecutionsOn(victim.pid())).as("executions the kill cut short")
				.isPositive()
				.isLessThanOrEqualTo(report.reaped());
			assertThat(count("SELECT count(*) FROM fault_execution WHERE finished_at IS NULL"))
				.as("unfinished executions on every worker").isEqualTo(unfinishedExecutionsOn(victim.pid()));
			GroupExecutions groups = new GroupExecutions(database);
			assertThat(groups.startedOutOfOrder()).isEmpty();
			assertThat(groups.startedBeforeTheGroupsLastEnded(victim.pid())).isEmpty();
		}
	}
}
