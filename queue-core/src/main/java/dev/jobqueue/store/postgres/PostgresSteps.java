package dev.jobqueue.store.postgres;

import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.Lease;
import dev.jobqueue.store.StepRows;
import dev.jobqueue.store.StepStore;

/**
 * The step table's statements on PostgreSQL: a read by the job's key, and an insert fenced by a plain read of the
 * job's row, which locks nothing (see the schema script of version 33 for why no foreign key).
 */
final class PostgresSteps implements StepStore {

	private final JdbcClient jdbc;

	PostgresSteps(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public Map<String, String> steps(long jobId) {
		return StepRows.byName(jdbc, "SELECT name, result::text FROM jobqueue_job_step WHERE job_id = :id", jobId);
	}

	@Override
	public boolean record(Lease lease, int attempt, String name, String result) {
		return jdbc.sql("""
				INSERT INTO jobqueue_job_step (job_id, name, attempt, result, recorded_at)
				SELECT id, :name, :attempt, CAST(:result AS jsonb), statement_timestamp() FROM jobqueue_job
				WHERE id = :id AND lease_token = :token AND state = 'running'
				ON CONFLICT (job_id, name) DO NOTHING""")
			.param("id", lease.jobId())
			.param("token", lease.token())
			.param("name", name)
			.param("attempt", attempt)
			.param("result", result)
			.update() == 1;
	}
}
