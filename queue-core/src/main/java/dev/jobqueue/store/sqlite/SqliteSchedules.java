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

	/** The database's now, in the table's milliseconds. */
	private static final String NOW = "CAST(round(unixepoch('subsec') * 1000) AS INTEGER)";

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
		return statements.read("schedules", () -> ScheduleState.all(jdbc, SqliteRows::instant));
	}

	@Override
	public boolean defineSchedule(String name, String timing, String definition, Instant nextFireAt,
			long expectedVersion) {
		String sql = expectedVersion == 0 ? """
				INSERT INTO jobqueue_schedule (name, timing, definition, next_fire_at, version, updated_at)
				VALUES (:name, :timing, :definition, :next, 1, %1$s)
				ON CONFLICT (name) DO NOTHING""".formatted(NOW) : """
				UPDATE jobqueue_schedule
				SET timing = :timing, definition = :definition, next_fire_at = :next, version = version + 1,
				    updated_at = %1$s
				WHERE name = :name AND version = :version""".formatted(NOW);
		return statements.write("define schedule", () -> jdbc.sql(sql)
			.param("name", name)
			.param("timing", timing)
			.param("definition", definition, Types.VARCHAR)
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
					    updated_at = %1$s
					WHERE name = :name AND version = :version""".formatted(NOW))
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

	@Override
	public boolean pauseSchedule(String name, boolean paused) {
		String sql = paused ? """
				UPDATE jobqueue_schedule SET paused_at = %1$s, version = version + 1, updated_at = %1$s
				WHERE name = :name AND paused_at IS NULL""".formatted(NOW) : """
				UPDATE jobqueue_schedule
				SET paused_at = NULL, next_fire_at = NULL, version = version + 1, updated_at = %1$s
				WHERE name = :name AND paused_at IS NOT NULL""".formatted(NOW);
		return statements.write(paused ? "pause schedule" : "resume schedule",
				() -> jdbc.sql(sql).param("name", name).update()) == 1;
	}

	@Override
	public boolean removeSchedule(String name) {
		return statements.write("remove schedule",
				() -> jdbc.sql("DELETE FROM jobqueue_schedule WHERE name = :name").param("name", name).update()) == 1;
	}

	private static Long millis(Instant instant) {
		return instant == null ? null : instant.toEpochMilli();
	}
}
