package dev.jobqueue.store.sqlite;

import java.time.Duration;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job;
import dev.jobqueue.store.TestHooks;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/** The statements only tests send (the queue-test module): which jobs a test enqueued, and time moved on. */
final class SqliteTestSupport implements TestHooks {

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteTestSupport(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	@Override
	public long newestId() {
		return statements.read("newest id", () -> jdbc.sql("SELECT COALESCE(max(id), 0) FROM jobqueue_job")
			.query(Long.class)
			.single());
	}

	@Override
	public List<Job> findNewerThan(long id, int limit) {
		return statements.read("find newer", () -> jdbc.sql("""
				SELECT id, queue, kind, payload, payload_version, state, priority, run_at, attempt, max_attempts,
				       lease_owner, lease_expires_at, unique_key, last_error, result, created_at, started_at,
				       finished_at, errors, concurrency_key
				FROM jobqueue_job WHERE id > :id ORDER BY id LIMIT :limit""")
			.param("id", id)
			.param("limit", limit)
			.query(SqliteRows::job)
			.list());
	}

	@Override
	public int bringReadyForward(Duration by) {
		// Every ready and blocked job moves by the same amount, as on PostgreSQL (PostgresTestSupport says why).
		return statements.write("bring ready forward", () -> jdbc.sql("""
				UPDATE jobqueue_job SET run_at = run_at - :millis WHERE state IN ('ready', 'blocked')""")
			.param("millis", by.toMillis())
			.update());
	}
}
