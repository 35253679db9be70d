package dev.jobqueue.store.postgres;

import static dev.jobqueue.store.postgres.PostgresDialect.TRANSITIONS;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ChangedJob;
import dev.jobqueue.store.OperatorWrites;

/**
 * The operator's writes on PostgreSQL: a cancel and a retry of a dead job, and the bulk operations, each changes a batch of jobs named by id in one statement,
 * under the same conditions as its one-job form, so that the state machine and the fencing hold row by row.
 * Each locks its rows in id order first ({@code ORDER BY id FOR UPDATE}): two batches that overlap then
 * wait for each other instead of deadlocking, and a claim, which skips locked rows, passes them over.
 */
final class PostgresBulk implements OperatorWrites {

	private final JdbcClient jdbc;

	private final boolean notify;

	PostgresBulk(JdbcClient jdbc, boolean notify) {
		this.jdbc = jdbc;
		this.notify = notify;
	}

	/**
	 * As {@link #retryDead}, row by row: a job with a concurrency key goes back to blocked,
	 * and a dead job whose unique key an unfinished job holds stays dead. The second NOT EXISTS keeps all but
	 * the newest of the batch's dead jobs of one kind and key dead: retried together they would all pass the
	 * first, which reads the statement's snapshot, and the unique index would refuse the second.
	 */
	@Override
	public List<ChangedJob> retryDeadAll(Collection<Long> ids) {
		return jdbc.sql("""
				UPDATE jobqueue_job j
				SET state = %s, attempt = 0, run_at = now(),
				    finished_at = NULL
				WHERE id = ANY(ARRAY(SELECT id FROM jobqueue_job WHERE id = ANY(CAST(:ids AS bigint[])) ORDER BY id FOR UPDATE))
				  AND state = 'dead'
				  AND NOT EXISTS (SELECT 1 FROM jobqueue_job holder
				                  WHERE holder.kind = j.kind AND holder.unique_key = j.unique_key AND holder.id <> j.id
				                    AND %s)
				  AND NOT EXISTS (SELECT 1 FROM jobqueue_job newer
				                  WHERE newer.id = ANY(CAST(:ids AS bigint[])) AND newer.id > j.id AND newer.state = 'dead'
				                    AND newer.kind = j.kind AND newer.unique_key = j.unique_key)
				RETURNING id, queue, concurrency_key,
				          CASE WHEN :notify AND concurrency_key IS NULL THEN pg_notify('jobqueue_ready', queue) IS NULL END""".formatted(
				TRANSITIONS.entryState(""), TRANSITIONS.holdsUniqueKey("holder")))
			.param("ids", ids.toArray(Long[]::new))
			.param("notify", notify)
			.query(PostgresBulk::changed)
			.list();
	}

	/**
	 * As {@link #cancel}, row by row: a running job keeps its worker's lease, so that its
	 * worker learns of the cancel, and the state change alone fences off that worker's outcome.
	 */
	@Override
	public List<ChangedJob> cancelAll(Collection<Long> ids) {
		return jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'cancelled', finished_at = statement_timestamp()
				WHERE id = ANY(ARRAY(SELECT id FROM jobqueue_job WHERE id = ANY(CAST(:ids AS bigint[])) ORDER BY id FOR UPDATE))
				  AND %s
				RETURNING id, queue, concurrency_key, CASE WHEN :notify THEN pg_notify('jobqueue_finished', '') IS NULL END""".formatted(
				TRANSITIONS.cancellable("")))
			.param("ids", ids.toArray(Long[]::new))
			.param("notify", notify)
			.query(PostgresBulk::changed)
			.list();
	}

	/**
	 * Finished jobs only, and never a dead one that holds its key's slot: that would let the key's next job run.
	 */
	@Override
	public List<ChangedJob> deleteFinished(Collection<Long> ids) {
		return jdbc.sql("""
				WITH deleted AS (
				    DELETE FROM jobqueue_job
				    WHERE id = ANY(ARRAY(SELECT id FROM jobqueue_job WHERE id = ANY(CAST(:ids AS bigint[])) ORDER BY id
				                         FOR UPDATE))
				      AND state IN ('succeeded', 'cancelled', 'dead') AND (concurrency_key IS NULL OR NOT %s)
				    RETURNING id, queue, concurrency_key
				), steps AS (
				    DELETE FROM jobqueue_job_step WHERE job_id IN (SELECT id FROM deleted)
				), dependencies AS (
				    DELETE FROM jobqueue_job_dependency WHERE job_id IN (SELECT id FROM deleted)
				), batches AS (
				    DELETE FROM jobqueue_batch_job WHERE job_id IN (SELECT id FROM deleted)
				)
				SELECT id, queue, concurrency_key FROM deleted""".formatted(TRANSITIONS.holdsSlot("")))
			.param("ids", ids.toArray(Long[]::new))
			.query(PostgresBulk::changed)
			.list();
	}

	private static ChangedJob changed(ResultSet rs, int row) throws SQLException {
		return new ChangedJob(rs.getLong("id"), rs.getString("queue"), rs.getString("concurrency_key"));
	}

	/**
	 * A running job keeps its worker's lease, and with it its key's slot, until the worker writes the handler's
	 * end ({@code Transition.CANCEL}); the worker finds its cancel by the lease token ({@code cancelled});
	 * the state change alone fences off that worker's outcome, which every write checks. Awaiters hear of it
	 * on jobqueue_finished, as of every job that finishes.
	 */
	@Override
	public boolean cancel(long id) {
		return !jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'cancelled', finished_at = statement_timestamp()
				WHERE id = :id
				  AND %s
				RETURNING CASE WHEN :notify THEN pg_notify('jobqueue_finished', '') IS NULL END""".formatted(
				TRANSITIONS.cancellable("")))
			.param("id", id)
			.param("notify", notify)
			.query((rs, n) -> 1)
			.list()
			.isEmpty();
	}

	@Override
	public boolean retryDead(long id) {
		// A job with a concurrency key goes back to blocked and waits for a slot, as a new one does.
		// NOT EXISTS leaves the job dead when an unfinished job of its kind holds its key: the update would
		// break the unique index, and its error would abort the caller's transaction.
		String retry = """
				UPDATE jobqueue_job j
				SET state = %s, attempt = 0, run_at = now(), finished_at = NULL
				WHERE id = :id AND state = 'dead'
				  AND NOT EXISTS (SELECT 1 FROM jobqueue_job holder
				                  WHERE holder.kind = j.kind AND holder.unique_key = j.unique_key AND holder.id <> j.id AND %s)
				RETURNING queue""".formatted(TRANSITIONS.entryState(""), TRANSITIONS.holdsUniqueKey("holder"));
		return !jdbc.sql(PostgresRows.notifyingReady(retry, notify)).param("id", id).query((rs, n) -> 1).list().isEmpty();
	}
}
