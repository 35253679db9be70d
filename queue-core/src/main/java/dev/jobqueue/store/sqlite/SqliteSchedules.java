package dev.jobqueue.store.sqlite;

import java.sql.Types;
import java.time.Instant;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.BatchTransactions;
import dev.jobqueue.store.ScheduleFiring;
import dev.jobqueue.store.ScheduleState;
import dev.jobqueue.store.ScheduleStore;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/**
 * The statements of recurring jobs on SQLite. Each write names the row's version, a compare-and-set; the
 * one writer at a time of SQLite orders racing nodes, and the later ones find the version moved on.
 */
final class SqliteSchedules implements ScheduleStore {

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	private final SqliteEnqueue enqueue;

	private final BatchTransactions transactions;

	SqliteSchedules(JdbcClient jdbc, SqliteStatements statements, SqliteEnqueue enqueue,
			BatchTransactions transactions) {
		this.jdbc = jdbc;
		this.statements = statements;
		this.enqueue = enqueue;
		this.transactions = transactions;
	}

	@Override
	public List<ScheduleState> schedules() {
		return statements.read("schedules", () -> jdbc.sql("""
				SELECT name, timing, next_fire_at, last_fire_at, version FROM jobqueue_schedule ORDER BY name""")
			.query((rs, n) -> new ScheduleState(rs.getString("name"), rs.getString("timing"),
					SqliteRows.instant(rs, "next_fire_at"), SqliteRows.instant(rs, "last_fire_at"),
					rs.getLong("version")))
			.list());
	}

	@Override
	public boolean defineSchedule(String name, String timing, Instant nextFireAt, long expectedVersion) {
		String sql = expectedVersion == 0 ? """
				INSERT INTO jobqueue_schedule (name, timing, next_fire_at, version, updated_at)
				VALUES (:name, :timing, :next, 1, CAST(round(unixepoch('subsec') * 1000) AS INTEGER))
				ON CONFLICT (name) DO NOTHING""" : """
				UPDATE jobqueue_schedule
				SET timing = :timing, next_fire_at = :next, version = version + 1,
				    updated_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
				WHERE name = :name AND version = :version""";
		return statements.write("define schedule", () -> jdbc.sql(sql)
			.param("name", name)
			.param("timing", timing)
			.param("next", millis(nextFireAt), Types.BIGINT)
			.param("version", expectedVersion)
			.update()) == 1;
	}

	/** One immediate transaction: the row moves and the jobs go in with the enqueue's own statements. */
	@Override
	public boolean fireSchedule(ScheduleFiring firing) {
		return transactions.run(() -> {
			int advanced = jdbc.sql("""
					UPDATE jobqueue_schedule
					SET next_fire_at = :next, last_fire_at = COALESCE(:last, last_fire_at), version = version + 1,
					    updated_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
					WHERE name = :name AND version = :version""")
				.param("next", millis(firing.nextFireAt()), Types.BIGINT)
				.param("last", millis(firing.lastFireAt()), Types.BIGINT)
				.param("name", firing.name())
				.param("version", firing.version())
				.update();
			if (advanced == 1) {
				enqueue.enqueueAll(firing.jobs());
			}
			return advanced == 1;
		});
	}

	private static Long millis(Instant instant) {
		return instant == null ? null : instant.toEpochMilli();
	}
}
