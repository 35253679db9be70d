package dev.jobqueue.store.postgres;

import java.sql.Types;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.Lease;
import dev.jobqueue.store.StepRows;
import dev.jobqueue.store.StepStore;
import dev.jobqueue.store.StepWrites;

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
		return StepRows.byName(jdbc, StepRows.select("result::text", false), jobId);
	}

	@Override
	public Map<String, String> notes(long jobId) {
		return StepRows.byName(jdbc, StepRows.select("result::text", true), jobId);
	}

	@Override
	public boolean record(Lease lease, int attempt, String name, String result) {
		return write(lease.jobId(), lease.token(), attempt, name, result, StepWrites.ONCE);
	}

	@Override
	public boolean save(Lease lease, int attempt, String name, String result) {
		return write(lease.jobId(), lease.token(), attempt, name, result, StepWrites.OVER);
	}

	@Override
	public boolean note(long jobId, int attempt, String name, String result) {
		return write(jobId, null, attempt, name, result, StepWrites.OVER);
	}

	private boolean write(long jobId, Long token, int attempt, String name, String result, String onConflict) {
		return jdbc.sql("""
				INSERT INTO jobqueue_job_step (job_id, name, attempt, result, recorded_at)
				SELECT id, :name, :attempt, CAST(:result AS jsonb), statement_timestamp() FROM jobqueue_job
				WHERE id = :id%s
				ON CONFLICT (job_id, name) %s""".formatted(StepWrites.fence(token), onConflict))
			.param("id", jobId)
			.param("token", token, Types.BIGINT)
			.param("name", name)
			.param("attempt", attempt)
			.param("result", result)
			.update() == 1;
	}
}
