package dev.jobqueue.store.sqlite;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.PauseScope;
import dev.jobqueue.store.PauseStore;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/**
 * The pause table's statements on SQLite, as on PostgreSQL ({@code PostgresPauses}): each one statement on
 * the primary key, under SQLite's one write lock. No notification: a resume is a commit to the file, which
 * the other processes' change watchers see within milliseconds. The claim reads the table in its own
 * statement ({@link SqliteClaims}).
 */
final class SqlitePauses implements PauseStore {

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqlitePauses(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	@Override
	public boolean pause(PauseScope scope, String name) {
		// The WHERE of DO UPDATE leaves a paused row as it is: a second pause reports no change and keeps the
		// time of the first.
		return statements.write("pause", () -> jdbc.sql("""
				INSERT INTO jobqueue_pause (scope, name, paused, changed_at)
				VALUES (:scope, :name, 1, CAST(round(unixepoch('subsec') * 1000) AS INTEGER))
				ON CONFLICT (scope, name) DO UPDATE
				SET paused = 1, changed_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
				WHERE paused = 0""")
			.param("scope", scope.name())
			.param("name", name)
			.update()) == 1;
	}

	@Override
	public boolean resume(PauseScope scope, String name) {
		return statements.write("resume", () -> jdbc.sql("""
				UPDATE jobqueue_pause SET paused = 0, changed_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
				WHERE scope = :scope AND name = :name AND paused = 1""")
			.param("scope", scope.name())
			.param("name", name)
			.update()) == 1;
	}

	@Override
	public boolean pauseUnlessRecorded(PauseScope scope, String name) {
		return statements.write("pause unless recorded", () -> jdbc.sql("""
				INSERT INTO jobqueue_pause (scope, name, paused, changed_at)
				VALUES (:scope, :name, 1, CAST(round(unixepoch('subsec') * 1000) AS INTEGER))
				ON CONFLICT (scope, name) DO NOTHING""")
			.param("scope", scope.name())
			.param("name", name)
			.update()) == 1;
	}

	@Override
	public Map<String, Instant> paused(PauseScope scope) {
		return statements.read("paused", () -> {
			Map<String, Instant> paused = new LinkedHashMap<>();
			jdbc.sql("SELECT name, changed_at FROM jobqueue_pause WHERE scope = :scope AND paused = 1 ORDER BY name")
				.param("scope", scope.name())
				.query(rs -> {
					paused.put(rs.getString("name"), SqliteRows.instant(rs, "changed_at"));
				});
			return paused;
		});
	}
}
