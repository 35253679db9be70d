package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 15: three workers drain ordered groups (a concurrency key per group, limit 1). An operator cancels a
 * running job of one group whose handler does not answer the interrupt and works on for seconds, and one other
 * worker is SIGKILLed while it holds jobs. The cancelled handler keeps its group's slot until it exits (decision
 * record 046), the killed worker's groups wait for the reaper: no two executions of a group at once, in order, no
 * job lost.
 */
abstract class OrderedGroupCancelAndKillFaultTest extends FaultScenario {

	private static final int KEYS = 4;

	private static final int JOBS_PER_KEY = 20;

	private static final int JOBS = KEYS * JOBS_PER_KEY;

	/** The third job of group-0, whose handler runs on for more than a second after the cancel's interrupt. */
	private static final int CANCELLED = 2 * KEYS;

	@Test
	void aCancelledHandlerKeepsItsGroupsSlotUntilItExitsAndAKilledWorkersGroupsCarryOnInOrder() throws Exception {
		// The cancelled handler holds its slot until it exits, its lease kept by its node's heartbeat meanwhile, or
		// until its lease expires once its node is gone (decision record 046): it exits within its first lease. One
		// other job in three works for 800 ms, so that the drain lasts for seconds and the kill can land while the
		// victim holds a job.
		long cancelledWork = database.lease().minusMillis(500).toMillis();
		List<Long> ids = enqueue(JOBS, "probe", 5, i -> i == CANCELLED
				? Probe.sleeping(cancelledWork).ignoringInterrupts().recorded()
				: Probe.sleeping(i % 3 == 1 ? 800 : 50).recorded(), i -> "group-" + i % KEYS);
		long cancelled = ids.get(CANCELLED);
		// One thread per worker, so that every worker holds jobs: on MySQL, which has no notifications, the worker
		// whose job freed a group's slot would otherwise claim the group's next job first, every time.
		Map<String, String> oneThread = Map.of("jobqueue.queues.default.concurrency", "1");
		try (WorkerFleet fleet = fleet(name -> database.jdbcUrl(), oneThread)) {
			List<WorkerJvm> workers = fleet.startAll("a", "b", "c");
			long holder = awaitHandlerStarted(cancelled);
			assertThat(queue.cancel(cancelled)).as("the cancel of running job " + cancelled).isTrue();

			WorkerJvm victim = workers.stream().filter(worker -> worker.pid() != holder).findFirst().orElseThrow();
			freezeHolding(victim, () -> unfinishedExecutionsOn(victim.pid()) > 0);
			victim.kill();

			awaitDrained(Duration.ofMinutes(2));
			assertNoJobLost(cancelled);
			assertThat(count("""
					SELECT count(*) FROM fault_audit
					WHERE old_state = 'running' AND new_state = 'ready' AND error LIKE 'lease expired on % at %'"""))
				.as("executions cut by the kill, reaped and run again").isPositive();
			assertThat(count("SELECT count(*) FROM fault_execution WHERE finished_at IS NULL"))
				.as("unfinished executions, all the kill's")
				.isPositive()
				.isEqualTo(unfinishedExecutionsOn(victim.pid()));
			GroupExecutions groups = new GroupExecutions(database);
			assertThat(groups.startedOutOfOrder()).isEmpty();
			assertThat(groups.startedBeforeTheGroupsLastEnded(victim.pid())).isEmpty();
		}
	}

	/** Waits until the handler of job {@code id} recorded its start; returns the process it runs in. */
	private long awaitHandlerStarted(long id) {
		return await("job " + id + "'s handler to start").atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> database.jdbc()
				.sql("SELECT pid FROM fault_execution WHERE job_id = :id")
				.param("id", id)
				.query(Long.class)
				.optional(), Optional::isPresent)
			.orElseThrow();
	}

	/**
	 * Every job enqueued ended: the cancelled one cancelled while it ran, its handler run to its end; every other
	 * one succeeded, with an execution that finished.
	 */
	private void assertNoJobLost(long cancelled) {
		assertThat(count("SELECT count(*) FROM jobqueue_job")).as("jobs in the table").isEqualTo(JOBS);
		assertThat(count("SELECT count(*) FROM jobqueue_job WHERE state = 'succeeded'")).as("succeeded jobs")
			.isEqualTo(JOBS - 1);
		assertThat(database.jdbc()
			.sql("""
					SELECT count(*) FROM fault_audit
					WHERE job_id = :id AND old_state = 'running' AND new_state = 'cancelled'""")
			.param("id", cancelled)
			.query(Long.class)
			.single()).as("job " + cancelled + " cancelled while it ran").isEqualTo(1);
		assertThat(count("SELECT count(DISTINCT job_id) FROM fault_execution WHERE finished_at IS NOT NULL"))
			.as("jobs with a finished execution, the cancelled one's included").isEqualTo(JOBS);
	}
}
