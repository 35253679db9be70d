package dev.jobqueue.store.sqlite;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.Lease;

/**
 * The SQLite statements that let a handler or an operator steer a job off its usual path: a snooze, a
 * cancel (of a running job too), and the look-up that tells a worker its job was cancelled.
 */
final class SqliteHandlerControl {

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteHandlerControl(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	/** Fenced like every outcome; the attempt is given back, so that it does not count. */
	boolean snooze(Lease lease, Duration delay) {
		return statements.write("snooze", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = CASE WHEN concurrency_rate_millis IS NULL THEN 'ready' ELSE 'blocked' END,
				    run_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :delayMillis,
				    attempt = attempt - 1, snoozes = snoozes + 1, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""")
			.param("delayMillis", delay.toMillis())
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update()) == 1;
	}

	/**
	 * The lease token stays, so that the worker of a running job finds its cancel by it ({@link #cancelled});
	 * the state change alone fences off that worker's outcome, which every write checks.
	 */
	boolean cancel(long id) {
		return statements.write("cancel", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'cancelled', finished_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER),
				    lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id
				  AND (state IN ('blocked', 'ready', 'running') OR (state = 'dead' AND concurrency_dead_holds = 1))""")
			.param("id", id)
			.update()) == 1;
	}

	/** Read only when a heartbeat or an outcome found leases lost: rare, and a few rows by primary key. */
	Set<Lease> cancelled(Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		Set<Lease> cancelled = new HashSet<>(statements.read("cancelled", () -> jdbc.sql("""
				SELECT id, lease_token FROM jobqueue_job
				WHERE id IN (SELECT value ->> 0 FROM json_each(:leases)) AND state = 'cancelled'""")
			.param("leases", SqliteRows.leasesJson(leases))
			.query(SqliteRows::lease)
			.list()));
		cancelled.retainAll(Set.copyOf(leases));
		return cancelled;
	}
}
