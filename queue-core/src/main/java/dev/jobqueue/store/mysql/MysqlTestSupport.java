package dev.jobqueue.store.mysql;

import java.time.Duration;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job;
import dev.jobqueue.store.TestHooks;
import dev.jobqueue.store.mysql.support.MysqlValues;

/** The statements only tests send (the queue-test module): which jobs a test enqueued, and time moved on. */
final class MysqlTestSupport implements TestHooks {

	private final JdbcClient jdbc;

	MysqlTestSupport(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public long newestId() {
		return jdbc.sql("SELECT COALESCE(max(id), 0) FROM jobqueue_job").query(Long.class).single();
	}

	@Override
	public List<Job> findNewerThan(long id, int limit) {
		return jdbc.sql("""
				SELECT id, queue, kind, payload, payload_version, state, priority, run_at, attempt, max_attempts,
				       lease_owner, lease_expires_at, unique_key, last_error, result, created_at, started_at,
				       finished_at, errors, concurrency_key
				FROM jobqueue_job WHERE id > :id ORDER BY id LIMIT :limit""")
			.param("id", id)
			.param("limit", limit)
			.query(MysqlRows::job)
			.list();
	}

	/**
	 * Every ready and blocked job moves by the same amount, as on PostgreSQL (PostgresTestSupport says why). A plain
	 * read of their ids first, then one update of those still ready or blocked through the primary key: a test moves
	 * time on while its application's workers run, and an update planned through the state index would lock the
	 * index entry before the row, the reverse of a promotion's order, and the two deadlocked (MysqlOutcomes says
	 * the same of the reaper).
	 */
	@Override
	public int bringReadyForward(Duration by) {
		List<Long> ids = jdbc.sql("SELECT id FROM jobqueue_job WHERE state IN ('ready', 'blocked') ORDER BY id")
			.query(Long.class)
			.list();
		if (ids.isEmpty()) {
			return 0;
		}
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY) SET run_at = run_at - INTERVAL :micros MICROSECOND
				WHERE id IN (:ids) AND state IN ('ready', 'blocked')
				ORDER BY id""")
			.param("micros", MysqlValues.micros(by))
			.param("ids", ids)
			.update();
	}
}
