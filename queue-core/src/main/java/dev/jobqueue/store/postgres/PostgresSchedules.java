package dev.jobqueue.store.postgres;

import java.sql.Types;
import java.time.Instant;
import java.util.List;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.BatchTransactions;
import dev.jobqueue.store.ScheduleFiring;
import dev.jobqueue.store.ScheduleState;
import dev.jobqueue.store.ScheduleStore;

/**
 * The statements of recurring jobs on PostgreSQL. Each write names the row's version, a compare-and-set:
 * when nodes race, one update matches and the others, re-checking their {@code WHERE} once the winner's row
 * lock is gone, match nothing.
 */
final class PostgresSchedules implements ScheduleStore {

	private final JdbcClient jdbc;

	private final PostgresEnqueue enqueue;

	private final BatchTransactions transactions;

	PostgresSchedules(DataSource dataSource, JdbcClient jdbc, PostgresEnqueue enqueue) {
		this.jdbc = jdbc;
		this.enqueue = enqueue;
		this.transactions = new BatchTransactions(dataSource);
	}

	@Override
	public List<ScheduleState> schedules() {
		return ScheduleState.all(jdbc, PostgresRows::instant);
	}

	@Override
	public boolean defineSchedule(String name, String timing, String definition, Instant nextFireAt,
			long expectedVersion) {
		String sql = expectedVersion == 0 ? """
				INSERT INTO jobqueue_schedule (name, timing, definition, next_fire_at, version)
				VALUES (:name, :timing, :definition, CAST(:next AS timestamptz), 1)
				ON CONFLICT (name) DO NOTHING""" : """
				UPDATE jobqueue_schedule
				SET timing = :timing, definition = :definition, next_fire_at = CAST(:next AS timestamptz),
				    version = version + 1, updated_at = now()
				WHERE name = :name AND version = :version""";
		return jdbc.sql(sql)
			.param("name", name)
			.param("timing", timing)
			.param("definition", definition, Types.VARCHAR)
			.param("next", PostgresRows.timestamp(nextFireAt), Types.TIMESTAMP_WITH_TIMEZONE)
			.param("version", expectedVersion)
			.update() == 1;
	}

	/**
	 * The row moves first: its lock then holds every other node's firing of the same schedule until this
	 * transaction ends, and those find the version moved on. The jobs go in with the enqueue's own
	 * statements, notifications included, so they commit, and wake the workers, with the row.
	 */
	@Override
	public boolean fireSchedule(ScheduleFiring firing) {
		return transactions.run(() -> {
			int advanced = jdbc.sql("""
					UPDATE jobqueue_schedule
					SET next_fire_at = CAST(:next AS timestamptz),
					    last_fire_at = COALESCE(CAST(:last AS timestamptz), last_fire_at),
					    version = version + 1, updated_at = now()
					WHERE name = :name AND version = :version""")
				.param("next", PostgresRows.timestamp(firing.nextFireAt()), Types.TIMESTAMP_WITH_TIMEZONE)
				.param("last", PostgresRows.timestamp(firing.lastFireAt()), Types.TIMESTAMP_WITH_TIMEZONE)
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
				UPDATE jobqueue_schedule SET paused_at = now(), version = version + 1, updated_at = now()
				WHERE name = :name AND paused_at IS NULL""" : """
				UPDATE jobqueue_schedule
				SET paused_at = NULL, next_fire_at = NULL, version = version + 1, updated_at = now()
				WHERE name = :name AND paused_at IS NOT NULL""";
		return jdbc.sql(sql).param("name", name).update() == 1;
	}

	@Override
	public boolean removeSchedule(String name) {
		return jdbc.sql("DELETE FROM jobqueue_schedule WHERE name = :name").param("name", name).update() == 1;
	}
}
