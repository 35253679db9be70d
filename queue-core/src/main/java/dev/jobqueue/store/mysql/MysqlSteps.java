package dev.jobqueue.store.mysql;

import java.sql.Types;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.Lease;
import dev.jobqueue.store.StepRows;
import dev.jobqueue.store.StepStore;

/**
 * The step table's statements on MySQL, as on PostgreSQL ({@code PostgresSteps}). INSERT IGNORE keeps a recorded
 * step as it is.
 */
final class MysqlSteps implements StepStore {

	private final JdbcClient jdbc;

	MysqlSteps(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public Map<String, String> steps(long jobId) {
		return StepRows.byName(jdbc, StepRows.SELECT, jobId);
	}

	/**
	 * The lease is read by a plain SELECT, then the step inserted: InnoDB's INSERT … SELECT would lock the job's row
	 * (shared, under REPEATABLE READ, MySQL's default) until a transactional handler commits, and the heartbeat,
	 * which passes over locked rows, would not extend the lease meanwhile. A lease lost between the two is the window
	 * any fenced write has; a transactional handler's completion, which locks, then rolls the step back with it.
	 */
	@Override
	public boolean record(Lease lease, int attempt, String name, String result) {
		boolean held = jdbc.sql("SELECT 1 FROM jobqueue_job WHERE id = :id AND lease_token = :token AND state = 'running'")
			.param("id", lease.jobId())
			.param("token", lease.token())
			.query(Integer.class)
			.optional()
			.isPresent();
		return held && jdbc.sql("""
				INSERT IGNORE INTO jobqueue_job_step (job_id, name, attempt, result, recorded_at)
				VALUES (:id, :name, :attempt, :result, UTC_TIMESTAMP(6))""")
			.param("id", lease.jobId())
			.param("name", name)
			.param("attempt", attempt)
			.param("result", result, Types.VARCHAR)
			.update() == 1;
	}
}
