package dev.jobqueue.store.sqlite;

import java.time.Duration;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The maintenance lease's statements on SQLite ({@code jobqueue_maintenance}, V22), as on PostgreSQL: one
 * row, taken and renewed by compare-and-set on the database's clock. Each is one write under the write
 * lock, so the processes sharing the file take turns and the second reads what the first wrote.
 */
final class SqliteMaintenanceLease {

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteMaintenanceLease(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	boolean hold(String owner, Duration lease) {
		// Taken when there is no row or it expired, renewed when it is the owner's; changes nothing otherwise
		// (PostgresMaintenanceLease.hold says more).
		return statements.write("hold maintenance", () -> jdbc.sql("""
				INSERT INTO jobqueue_maintenance (single, holder, expires_at)
				VALUES (1, :owner, CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :leaseMillis)
				ON CONFLICT (single) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
				WHERE holder = excluded.holder OR expires_at < CAST(round(unixepoch('subsec') * 1000) AS INTEGER)""")
			.param("owner", owner)
			.param("leaseMillis", lease.toMillis())
			.update()) == 1;
	}

	void release(String owner) {
		statements.write("release maintenance", () -> jdbc.sql("DELETE FROM jobqueue_maintenance WHERE holder = :owner")
			.param("owner", owner)
			.update());
	}
}
