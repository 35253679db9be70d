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
			assertThat(groupsStartedOutOfOrder()).isEmpty();
			assertThat(executionsStartedBeforeTheGroupsLastEnded(victim.pid())).isEmpty();
		}
	}

	/** Executions on {@code pid} that recorded a start and no end. */
	private long unfinishedExecutionsOn(long pid) {
		return database.jdbc()
			.sql("SELECT count(*) FROM fault_execution WHERE finished_at IS NULL AND pid = :pid")
			.param("pid", pid)
			.query(Long.class)
			.single();
	}

	/**
	 * Jobs whose first execution started before that of a job enqueued earlier in their group. Executions are
	 * numbered as they record their start, which orders the starts of a group without reading any clock.
	 */
	private List<String> groupsStartedOutOfOrder() {
		return database.jdbc().sql("""
				SELECT concurrency_key || ': job ' || previous_job || ' started before job ' || job_id
				       || ', enqueued before it'
				FROM (SELECT concurrency_key, job_id,
				             LAG(job_id) OVER (PARTITION BY concurrency_key ORDER BY first_execution) AS previous_job
				      FROM (SELECT j.concurrency_key, e.job_id, min(e.id) AS first_execution
				            FROM fault_execution e JOIN jobqueue_job j ON j.id = e.job_id
				            GROUP BY j.concurrency_key, e.job_id) AS firsts) AS ordered
				WHERE previous_job > job_id""")
			.query(String.class)
			.list();
	}

	/**
	 * Executions that started before the one before them in their group had ended. The kill cut one
	 * execution short in some groups: it has no end, and the next execution of its group must be its own
	 * job's, run again once the reaper gave it back, for the cut job kept the group's slot.
	 */
	private List<String> executionsStartedBeforeTheGroupsLastEnded(long victim) {
		return database.jdbc().sql("""
				SELECT concurrency_key || ': execution ' || id || ' of job ' || job_id || ' started before execution '
				       || previous_id || ' of job ' || previous_job || ' had ended'
				FROM (SELECT e.id, e.job_id, e.started_at, j.concurrency_key,
				             LAG(e.id) OVER w AS previous_id, LAG(e.job_id) OVER w AS previous_job,
				             LAG(e.pid) OVER w AS previous_pid, LAG(e.finished_at) OVER w AS previous_end
				      FROM fault_execution e JOIN jobqueue_job j ON j.id = e.job_id
				      WINDOW w AS (PARTITION BY j.concurrency_key ORDER BY e.id)) AS runs
				WHERE previous_id IS NOT NULL
				  AND (previous_end > started_at
				       OR (previous_end IS NULL AND (previous_pid <> :victim OR previous_job <> job_id)))""")
			.param("victim", victim)
			.query(String.class)
			.list();
	}
}
