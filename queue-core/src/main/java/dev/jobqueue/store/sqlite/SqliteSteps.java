package dev.jobqueue.store.sqlite;

import java.sql.Types;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.Lease;
import dev.jobqueue.store.StepRows;
import dev.jobqueue.store.StepStore;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/** The step table's statements on SQLite, as on PostgreSQL ({@code PostgresSteps}); a trigger deletes them with the job. */
final class SqliteSteps implements StepStore {

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteSteps(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	@Override
	public Map<String, String> steps(long jobId) {
		return statements.read("steps", () -> StepRows.byName(jdbc, StepRows.SELECT, jobId));
	}

	@Override
	public boolean record(Lease lease, int attempt, String name, String result) {
		return statements.write("record step", () -> jdbc.sql("""
				INSERT INTO jobqueue_job_step (job_id, name, attempt, result, recorded_at)
				SELECT id, :name, :attempt, :result, CAST(round(unixepoch('subsec') * 1000) AS INTEGER) FROM jobqueue_job
				WHERE id = :id AND lease_token = :token AND state = 'running'
				ON CONFLICT (job_id, name) DO NOTHING""")
			.param("id", lease.jobId())
			.param("token", lease.token())
			.param("name", name)
			.param("attempt", attempt)
			.param("result", result, Types.VARCHAR)
			.update()) == 1;
	}
}
