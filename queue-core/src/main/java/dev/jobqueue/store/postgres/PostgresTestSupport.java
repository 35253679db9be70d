package dev.jobqueue.store.postgres;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

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

	/**
	 * Every ready job moves by the same amount, those due already included, so that the claim order (priority,
	 * run_at, id) stays what it would have been once that much time had passed. Blocked jobs move too: their run_at
	 * is their due time once promoted (the later of it and the promotion's now).
	 *
	 * <p>A test moves time on while its application's workers run, and the workers lock rows in orders of their own
	 * (a completion in id order, a promotion in key order): one update of every row waiting for their locks
	 * deadlocked with them. So the rows free now move in one update that skips the locked ones, and each of those
	 * then moves in an update of its own, which holds one lock only and so waits without a cycle; a row no longer
	 * ready or blocked by then (claimed, say) is left.
	 */
	@Override
	public int bringReadyForward(Duration by) {
		List<Long> waiting = jdbc.sql("SELECT id FROM jobqueue_job WHERE state IN ('ready', 'blocked')")
			.query(Long.class)
			.list();
		Set<Long> locked = new TreeSet<>(waiting);
		locked.removeAll(jdbc.sql("""
				WITH free AS (
				    SELECT id FROM jobqueue_job
				    WHERE id = ANY(CAST(:ids AS bigint[])) AND state IN ('ready', 'blocked')
				    FOR UPDATE SKIP LOCKED
				)
				UPDATE jobqueue_job j SET run_at = j.run_at - :millis * interval '1 millisecond'
				FROM free WHERE j.id = free.id
				RETURNING j.id""")
			.param("ids", waiting.toArray(Long[]::new))
			.param("millis", by.toMillis())
			.query(Long.class)
			.list());
		int moved = waiting.size() - locked.size();
		for (long id : locked) {
			moved += jdbc.sql("""
					UPDATE jobqueue_job SET run_at = run_at - :millis * interval '1 millisecond'
					WHERE id = :id AND state IN ('ready', 'blocked')""")
				.param("id", id)
				.param("millis", by.toMillis())
				.update();
		}
		return moved;
	}
}
