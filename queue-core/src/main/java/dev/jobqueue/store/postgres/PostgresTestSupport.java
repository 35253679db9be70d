package dev.jobqueue.store.postgres;

import java.time.Duration;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job;
import dev.jobqueue.store.TestHooks;

/** The statements only tests send (the queue-test module): which jobs a test enqueued, and time moved on. */
final class PostgresTestSupport implements TestHooks {

	private final JdbcClient jdbc;

	PostgresTestSupport(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public long newestId() {
		// A backward step on the primary key's index, however large the table.
		return jdbc.sql("SELECT COALESCE(max(id), 0) FROM jobqueue_job").query(Long.class).single();
	}

	@Override
	public List<Job> findNewerThan(long id, int limit) {
		return jdbc.sql("""
				SELECT id, queue, kind, payload::text AS payload, payload_version, state, priority, run_at, attempt,
				       max_attempts, lease_owner, lease_expires_at, unique_key, last_error, result::text AS result,
				       created_at, started_at, finished_at, errors::text AS errors, concurrency_key
				FROM jobqueue_job WHERE id > :id ORDER BY id LIMIT :limit""")
			.param("id", id)
			.param("limit", limit)
			.query(PostgresRows::job)
			.list();
	}

	@Override
	public int bringReadyForward(Duration by) {
		// Every ready job moves by the same amount, those due already included, so that the claim order
		// (priority, run_at, id) stays what it would have been once that much time had passed. Blocked jobs
		// move too: their run_at is their due time once promoted (the later of it and the promotion's now).
		return jdbc.sql("""
				UPDATE jobqueue_job SET run_at = run_at - :millis * interval '1 millisecond'
				WHERE state IN ('ready', 'blocked')""")
			.param("millis", by.toMillis())
			.update();
	}
}
