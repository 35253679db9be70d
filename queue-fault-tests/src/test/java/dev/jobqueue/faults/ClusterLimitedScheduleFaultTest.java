package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 16: a kind limited to one job at a time in the cluster ({@code clusterConcurrency = 1}, handlers of
 * 2.5 s), fed by a schedule every second that each of three workers declares. The schedule's jobs take the kind's
 * key (decision record 045), whichever node fires them: never two executions at once across the workers, each
 * fire time enqueued once.
 */
abstract class ClusterLimitedScheduleFaultTest extends FaultScenario {

	private static final Logger log = LoggerFactory.getLogger(ClusterLimitedScheduleFaultTest.class);

	private static final String KIND = "limited-tick";

	@Test
	void aScheduledKindLimitedToOneRunsOneAtATimeAcrossThreeNodesAndEachFireTimeOnce() throws Exception {
		try (WorkerFleet fleet = fleet(name -> database.jdbcUrl(), Map.of("fault.limited-schedule", "true"))) {
			List<WorkerJvm> workers = fleet.startAll("a", "b", "c");
			// Four executions are ten seconds of fires, each due while another execution runs.
			await("four executions to finish").atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> count("SELECT count(*) FROM fault_execution WHERE finished_at IS NOT NULL") >= 4);
			for (WorkerJvm worker : workers) {
				worker.kill();
			}

			assertThat(overlappingExecutions()).isEmpty();
			ScheduleFires fires = new ScheduleFires(database, KIND);
			assertThat(fires.enqueuedMoreThanOnce()).isEmpty();
			assertThat(fires.skipped(Duration.ofSeconds(1))).isEmpty();
			log.info("scenario 16 (a cluster-limited kind fed by a schedule on 3 nodes): {} fire times, {} executions "
					+ "on {} of the 3 workers, none at once", fires.all().size(),
					count("SELECT count(*) FROM fault_execution"),
					count("SELECT count(DISTINCT pid) FROM fault_execution"));
		}
	}

	/**
	 * Pairs of executions that ran at the same time, on any workers. One without an end still ran when the
	 * workers were killed.
	 */
	private List<String> overlappingExecutions() {
		return database.jdbc().sql("""
				SELECT 'execution ' || a.id || ' of job ' || a.job_id || ' in process ' || a.pid
				       || ' overlaps execution ' || b.id || ' of job ' || b.job_id || ' in process ' || b.pid
				FROM fault_execution a JOIN fault_execution b ON a.id < b.id
				WHERE (a.finished_at IS NULL OR b.started_at < a.finished_at)
				  AND (b.finished_at IS NULL OR a.started_at < b.finished_at)""")
			.query(String.class)
			.list();
	}
}
