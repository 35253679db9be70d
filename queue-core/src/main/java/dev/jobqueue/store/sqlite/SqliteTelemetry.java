package dev.jobqueue.store.sqlite;

import java.time.Duration;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The wait of each queue's oldest due job, read as on PostgreSQL ({@code PostgresTelemetry}); SQLite keeps no
 * dead row versions, so there is no table health to read.
 */
final class SqliteTelemetry {

	/**
	 * One search of the ready index per priority (0 - 9 by the column's CHECK), the first entry of each in run_at
	 * order, as the claim walks it but without its filters on kinds and pauses: the wait of a paused queue, or of a
	 * kind no node serves, is what this shows. Zero when no ready job of the queue is due.
	 */
	static final String OLDEST_READY = """
			WITH priorities (priority) AS (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9))
			SELECT max(0, coalesce(CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
			                       - min((SELECT run_at FROM jobqueue_job
			                              WHERE state = 'ready' AND queue = :queue AND priority = priorities.priority
			                              ORDER BY run_at
			                              LIMIT 1)), 0))
			FROM priorities""";

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteTelemetry(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	Duration oldestReadyAge(String queue) {
		return Duration.ofMillis(statements.read("oldest ready",
				() -> jdbc.sql(OLDEST_READY).param("queue", queue).query(Long.class).single()));
	}
}
