package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.jobqueue.Batch;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.EnqueuedBatch;
import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 22: three workers run a batch of 10,000 jobs with a callback on finish and one on failure; one worker is
 * SIGKILLed while it holds jobs of the batch. No job is lost; the batch's last job, the one that ends dead, comes
 * after the kill; each callback is promoted once and runs once, the one on finish after every job of the batch had
 * finished an execution; the batch records its counts.
 */
abstract class BatchWorkerKilledFaultTest extends FaultScenario {

	private static final int JOBS = 10_000;

	@Test
	void aWorkerKilledInTheMiddleOfABatchLosesNoJobAndItsCallbacksRunOnceEach() throws Exception {
		EnqueuedBatch batch = enqueueBatch();
		long onFinish = batch.onFinish().orElseThrow();
		long onFailure = batch.onFailure().orElseThrow();
		try (WorkerFleet fleet = fleet()) {
			List<WorkerJvm> workers = fleet.startAll("a", "b", "c");
			await().atMost(Duration.ofMinutes(3)).until(() -> finished() >= JOBS / 3);

			WorkerJvm victim = workers.get(0);
			freezeHolding(victim, () -> unfinishedExecutionsOn(victim.pid()) > 0);
			long cut = runningIdsOn(victim).size();
			victim.kill();

			awaitDrained(Duration.ofMinutes(5));
			Invariants.Report report = checkInvariants(fleet, "scenario 22 (SIGKILL in the middle of a batch)",
					JOBS + 2, List.of(victim.pid()));
			report.assertSucceeded(JOBS + 1);
			assertThat(report.dead()).as("the batch's job meant to die").isEqualTo(1);
			assertThat(report.reaped()).as("executions cut by the kill, reaped and run again")
				.isPositive()
				.isLessThanOrEqualTo(cut);
			for (long callback : List.of(onFinish, onFailure)) {
				assertThat(count("SELECT count(*) FROM fault_audit WHERE old_state = 'waiting' AND job_id = " + callback))
					.as("promotions of callback %d", callback).isEqualTo(1);
				assertThat(count("SELECT count(*) FROM fault_execution WHERE job_id = " + callback))
					.as("executions of callback %d", callback).isEqualTo(1);
			}
			assertThat(count("""
					SELECT count(*) FROM fault_execution e JOIN jobqueue_batch_job m ON m.job_id = e.job_id
					WHERE m.role = 'member'
					  AND e.finished_at >= (SELECT started_at FROM fault_execution WHERE job_id = %d)""".formatted(onFinish)))
				.as("executions of the batch's jobs that finished after its callback on finish started").isZero();
			assertThat(count("SELECT count(*) FROM jobqueue_batch WHERE finished_at IS NOT NULL AND succeeded = "
					+ (JOBS - 1) + " AND dead = 1 AND cancelled = 0 AND total = " + JOBS))
				.as("the batch finished, with its counts").isEqualTo(1);
		}
	}

	/**
	 * One job in a hundred works a second, so that the kill lands while the victim holds some. The job that ends
	 * dead is the last, claimed after the kill, so that the failure callback cannot run on the victim.
	 */
	private EnqueuedBatch enqueueBatch() {
		EnqueueOptions options = EnqueueOptions.defaults().maxAttempts(10);
		Batch batch = queue.batch();
		for (int i = 0; i < JOBS - 1; i++) {
			batch.add("probe", Probe.sleeping(i % 100 == 0 ? 1_000 : i % 5).recorded(), options);
		}
		batch.add("probe", Probe.sleeping(0).failing(1).recorded(), EnqueueOptions.defaults().maxAttempts(1));
		return batch.onFinish("probe", Probe.sleeping(0).recorded(), options)
			.onFailure("probe", Probe.sleeping(0).recorded(), options)
			.enqueue();
	}
}
