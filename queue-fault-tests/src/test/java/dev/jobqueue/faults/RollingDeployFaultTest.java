package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/**
 * Scenario "rolling deploy": a worker of the old version, without the handler of a kind the new version
 * adds, works alone while jobs of both kinds arrive; a worker of the new version joins; the old one is
 * stopped gracefully. The old worker never claims a job of the new kind, so none dies of a missing
 * handler; every one of them runs on the new worker.
 */
abstract class RollingDeployFaultTest extends FaultScenario {

	private static final int JOBS = LONG ? 20_000 : 2_000;

	@Test
	void jobsOfAKindOnlyTheNewVersionServesWaitForItAndNoneIsLost() throws Exception {
		try (WorkerFleet fleet = fleet()) {
			WorkerJvm old = fleet.start("old").awaitStarted();
			enqueueBothKinds(JOBS / 2);
			// Once the old worker has run every job of its kind, it has passed all the others in claim order.
			await("the old worker to run every job of its kind").atMost(Duration.ofMinutes(2))
				.until(() -> count("""
						SELECT count(*) FROM jobqueue_job WHERE kind = 'probe' AND state = 'succeeded'""") == JOBS / 4);
			assertThat(count("SELECT count(*) FROM jobqueue_job WHERE kind = 'probe-new' AND attempt > 0"))
				.as("jobs of the new kind the old worker touched").isZero();

			WorkerJvm current = fleet.start("new", Map.of("fault.new-version", "true")).awaitStarted();
			await("the new worker to run jobs of the new kind").atMost(Duration.ofMinutes(2))
				.until(() -> count("""
						SELECT count(*) FROM jobqueue_job WHERE kind = 'probe-new' AND state = 'succeeded'""") > 0);
			// Producers go on enqueueing both kinds while the old version is taken down.
			enqueueBothKinds(JOBS / 2);
			old.terminate();
			awaitDrained(Duration.ofMinutes(3));

			Invariants.Report report = checkInvariants(fleet, "rolling deploy (old worker stopped gracefully)", JOBS,
					List.of(old.pid()));
			report.assertSucceeded(JOBS);
			assertThat(report.dead()).isZero();
			assertThat(database.jdbc().sql("""
					SELECT DISTINCT e.pid FROM fault_execution e JOIN jobqueue_job j ON j.id = e.job_id
					WHERE j.kind = 'probe-new'""").query(Long.class).list())
				.as("workers that ran jobs of the new kind").containsExactly(current.pid());
		}
	}

	private void enqueueBothKinds(int count) {
		enqueue(count / 2, "probe", 5, i -> Probe.sleeping(i % 20).recorded());
		enqueue(count / 2, "probe-new", 5, i -> Probe.sleeping(i % 20).recorded());
	}
}
