package dev.jobqueue.store.mysql;

import java.sql.Types;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.Lease;
import dev.jobqueue.store.StepRows;
import dev.jobqueue.store.StepStore;
import dev.jobqueue.store.StepWrites;

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
		return StepRows.byName(jdbc, StepRows.select("result", false), jobId);
	}

	@Override
	public Map<String, String> notes(long jobId) {
		return StepRows.byName(jdbc, StepRows.select("result", true), jobId);
	}

	/**
	 * The lease is read by a plain SELECT, then the step inserted: InnoDB's INSERT … SELECT would lock the job's row
	 * (shared, under REPEATABLE READ, MySQL's default) until a transactional handler commits, and the heartbeat,
	 * which passes over locked rows, would not extend the lease meanwhile. A lease lost between the two is the window
	 * any fenced write has; a transactional handler's completion, which locks, then rolls the step back with it.
	 */
	@Override
	public boolean record(Lease lease, int attempt, String name, String result) {
		return held(lease.jobId(), lease.token())
				&& insert(lease.jobId(), attempt, name, result, "INSERT IGNORE", "") == 1;
	}

	/** Once the lease is seen held, the upsert writes whatever it finds: a new row, or over the one there. */
	@Override
	public boolean save(Lease lease, int attempt, String name, String result) {
		return over(lease.jobId(), lease.token(), attempt, name, result);
	}

	@Override
	public boolean note(long jobId, int attempt, String name, String result) {
		return over(jobId, null, attempt, name, result);
	}

	private boolean over(long jobId, Long token, int attempt, String name, String result) {
		if (!held(jobId, token)) {
			return false;
		}
		insert(jobId, attempt, name, result, "INSERT", """
				ON DUPLICATE KEY UPDATE attempt = VALUES(attempt), result = VALUES(result),
				    recorded_at = VALUES(recorded_at)""");
		return true;
	}

	/** Whether the job is there, and held by {@code token} while running unless that is null. */
	private boolean held(long jobId, Long token) {
		return jdbc.sql("SELECT 1 FROM jobqueue_job WHERE id = :id" + StepWrites.fence(token))
			.param("id", jobId)
			.param("token", token, Types.BIGINT)
			.query(Integer.class)
			.optional()
			.isPresent();
	}

	private int insert(long jobId, int attempt, String name, String result, String insert, String onDuplicate) {
		return jdbc.sql("""
				%s INTO jobqueue_job_step (job_id, name, attempt, result, recorded_at)
				VALUES (:id, :name, :attempt, :result, UTC_TIMESTAMP(6))
				%s""".formatted(insert, onDuplicate))
			.param("id", jobId)
			.param("name", name)
			.param("attempt", attempt)
			.param("result", result, Types.VARCHAR)
			.update();
	}
}
