package dev.jobqueue.faults;

import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What the recorded executions ({@code fault_execution}) of ordered groups say about order and overlap: the
 * promises of a concurrency key of limit 1, read per key from the jobs' {@code concurrency_key}.
 */
final class GroupExecutions {

	private final JdbcClient jdbc;

	GroupExecutions(FaultDatabase database) {
		this.jdbc = database.jdbc();
	}

	/**
	 * Jobs whose first execution started before that of a job enqueued earlier in their group. Executions are
	 * numbered as they record their start, which orders the starts of a group without reading any clock.
	 */
	List<String> startedOutOfOrder() {
		return jdbc.sql("""
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
	 * Executions that started before the one before them in their group had ended (an overlap with any earlier
	 * one implies one with the one just before). The kill of {@code victim} cut one execution short in some
	 * groups: it has no end, and the next execution of its group must be its own job's, run again once the reaper
	 * gave it back, for the cut job kept the group's slot.
	 */
	List<String> startedBeforeTheGroupsLastEnded(long victim) {
		return jdbc.sql("""
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
