package dev.jobqueue.store.mysql;

import java.sql.Types;
import java.time.Instant;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.BatchTransactions;
import dev.jobqueue.store.ScheduleFiring;
import dev.jobqueue.store.ScheduleState;
import dev.jobqueue.store.ScheduleStore;
import dev.jobqueue.store.mysql.support.MysqlValues;

/**
 * The statements of recurring jobs on MySQL. Each write names the row's version, a compare-and-set; the row's
 * lock orders racing nodes, and the later ones find the version moved on.
 */
final class MysqlSchedules implements ScheduleStore {

	private final JdbcClient jdbc;

	private final MysqlEnqueue enqueue;

	private final BatchTransactions transactions;

	MysqlSchedules(JdbcClient jdbc, MysqlEnqueue enqueue, BatchTransactions transactions) {
		this.jdbc = jdbc;
		this.enqueue = enqueue;
		this.transactions = transactions;
	}

	@Override
	public List<ScheduleState> schedules() {
		return ScheduleState.all(jdbc, MysqlRows::instant);
	}

	/** A new row is an INSERT IGNORE: the only refusal it can meet is the name's primary key, another node's row. */
	@Override
	public boolean defineSchedule(String name, String timing, String definition, Instant nextFireAt,
			long expectedVersion) {
		String sql = expectedVersion == 0 ? """
				INSERT IGNORE INTO jobqueue_schedule (name, timing, definition, next_fire_at, version, updated_at)
				VALUES (:name, :timing, :definition, :next, 1, UTC_TIMESTAMP(6))""" : """
				UPDATE jobqueue_schedule
				SET timing = :timing, definition = :definition, next_fire_at = :next, version = version + 1,
				    updated_at = UTC_TIMESTAMP(6)
				WHERE name = :name AND version = :version""";
		return jdbc.sql(sql)
			.param("name", name)
			.param("timing", timing)
			.param("definition", definition, Types.VARCHAR)
			.param("next", MysqlValues.parameter(nextFireAt))
			.param("version", expectedVersion)
			.update() == 1;
	}

	/**
	 * The row moves first: its lock then holds every other node's firing of the same schedule until this
	 * transaction ends, and those find the version moved on. The jobs go in with the enqueue's own statements.
	 */
	@Override
	public boolean fireSchedule(ScheduleFiring firing) {
		return transactions.run(() -> {
			int advanced = jdbc.sql("""
					UPDATE jobqueue_schedule
					SET next_fire_at = :next, last_fire_at = COALESCE(:last, last_fire_at), version = version + 1,
					    updated_at = UTC_TIMESTAMP(6)
					WHERE name = :name AND version = :version""")
				.param("next", MysqlValues.parameter(firing.nextFireAt()))
				.param("last", MysqlValues.parameter(firing.lastFireAt()))
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
				UPDATE jobqueue_schedule
				SET paused_at = UTC_TIMESTAMP(6), version = version + 1, updated_at = UTC_TIMESTAMP(6)
				WHERE name = :name AND paused_at IS NULL""" : """
				UPDATE jobqueue_schedule
				SET paused_at = NULL, next_fire_at = NULL, version = version + 1, updated_at = UTC_TIMESTAMP(6)
				WHERE name = :name AND paused_at IS NOT NULL""";
		return jdbc.sql(sql).param("name", name).update() == 1;
	}

	@Override
	public boolean removeSchedule(String name) {
		return jdbc.sql("DELETE FROM jobqueue_schedule WHERE name = :name").param("name", name).update() == 1;
	}
}
