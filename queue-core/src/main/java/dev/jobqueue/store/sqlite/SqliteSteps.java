package dev.jobqueue.store.sqlite;

import java.sql.Types;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.Lease;
import dev.jobqueue.store.StepRows;
import dev.jobqueue.store.StepStore;
import dev.jobqueue.store.StepWrites;
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
		return statements.read("steps", () -> StepRows.byName(jdbc, StepRows.select("result", false), jobId));
	}

	@Override
	public Map<String, String> notes(long jobId) {
		return statements.read("notes", () -> StepRows.byName(jdbc, StepRows.select("result", true), jobId));
	}

	@Override
	public boolean record(Lease lease, int attempt, String name, String result) {
		return write("record step", lease.jobId(), lease.token(), attempt, name, result, StepWrites.ONCE);
	}

	@Override
	public boolean save(Lease lease, int attempt, String name, String result) {
		return write("save cursor", lease.jobId(), lease.token(), attempt, name, result, StepWrites.OVER);
	}

	@Override
	public boolean note(long jobId, int attempt, String name, String result) {
		return write("write note", jobId, null, attempt, name, result, StepWrites.OVER);
	}

	private boolean write(String what, long jobId, Long token, int attempt, String name, String result,
			String onConflict) {
		return statements.write(what, () -> jdbc.sql("""
				INSERT INTO jobqueue_job_step (job_id, name, attempt, result, recorded_at)
				SELECT id, :name, :attempt, :result, CAST(round(unixepoch('subsec') * 1000) AS INTEGER) FROM jobqueue_job
				WHERE id = :id%s
				ON CONFLICT (job_id, name) %s""".formatted(StepWrites.fence(token), onConflict))
			.param("id", jobId)
			.param("token", token, Types.BIGINT)
			.param("name", name)
			.param("attempt", attempt)
			.param("result", result, Types.VARCHAR)
			.update()) == 1;
	}
}
