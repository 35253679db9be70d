package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 21: three workers run workflows of three levels (a root, two jobs after it, and one after both); one
 * worker is SIGKILLed while it holds jobs of them. No job is lost, none is left waiting, none starts before every
 * job it runs after has finished an execution, and none runs twice but after the kill cut it.
 */
abstract class WorkflowWorkerKilledFaultTest extends FaultScenario {

	private static final int GRAPHS = LONG ? 10_000 : 1_000;

	private static final int JOBS = GRAPHS * 4;

	@Test
	void aWorkerKilledInTheMiddleOfWorkflowsLosesNoJobAndStartsNoneBeforeItsDependencies() throws Exception {
		// One graph in ten works a second per job, so that the kill lands while the victim holds some.
		for (int graph = 0; graph < GRAPHS; graph++) {
			enqueueGraph(graph % 10 == 0 ? 1_000 : graph % 5);
		}
		try (WorkerFleet fleet = fleet()) {
			List<WorkerJvm> workers = fleet.startAll("a", "b", "c");
			await().atMost(Duration.ofMinutes(3)).until(() -> finished() >= JOBS / 3);

			WorkerJvm victim = workers.get(0);
			freezeHolding(victim, () -> unfinishedExecutionsOn(victim.pid()) > 0);
			long cut = runningIdsOn(victim).size();
			victim.kill();

			awaitDrained(Duration.ofMinutes(3));
			Invariants.Report report = checkInvariants(fleet, "scenario 21 (SIGKILL in the middle of workflows)", JOBS,
					List.of(victim.pid()));
			report.assertSucceeded(JOBS);
			assertThat(report.reaped()).as("executions cut by the kill, reaped and run again")
				.isPositive()
				.isLessThanOrEqualTo(cut);
			assertThat(count("SELECT count(*) FROM jobqueue_job WHERE state = 'waiting'")).as("jobs left waiting")
				.isZero();
			assertThat(count("SELECT count(*) FROM jobqueue_job_dependency")).as("dependencies").isEqualTo(4L * GRAPHS);
			assertThat(count("""
					SELECT count(*) FROM fault_execution e
					JOIN jobqueue_job_dependency d ON d.job_id = e.job_id
					WHERE NOT EXISTS (SELECT 1 FROM fault_execution de
					                  WHERE de.job_id = d.depends_on AND de.finished_at IS NOT NULL
					                    AND de.finished_at <= e.started_at)"""))
				.as("executions started before a job they run after had finished one").isZero();
		}
	}

	private void enqueueGraph(long sleepMillis) {
		EnqueueOptions options = EnqueueOptions.defaults().maxAttempts(10);
		Probe probe = Probe.sleeping(sleepMillis).recorded();
		queue.workflow()
			.add("root", "probe", probe, options)
			.add("left", "probe", probe, options, "root")
			.add("right", "probe", probe, options, "root")
			.add("leaf", "probe", probe, options, "left", "right")
			.enqueue();
	}
}
