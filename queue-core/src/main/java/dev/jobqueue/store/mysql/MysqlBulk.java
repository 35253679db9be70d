package dev.jobqueue.store.mysql;

import static dev.jobqueue.store.mysql.MysqlDialect.TRANSITIONS;

import java.util.Collection;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ChangedJob;
import dev.jobqueue.store.OperatorWrites;
import dev.jobqueue.store.mysql.support.MysqlTransactions;

/**
 * The operator's writes on MySQL: a cancel by primary key, and the bulk operations, as on PostgreSQL ({@code PostgresBulk}): a batch of jobs named by id,
 * changed under the conditions of the one-job form. MySQL's UPDATE and DELETE return no rows, and may not read
 * their own table in a subquery: each batch is a locking read of the rows that qualify, in id order, then one
 * write of exactly those, in one READ COMMITTED transaction.
 */
final class MysqlBulk implements OperatorWrites {

	private final JdbcClient jdbc;

	private final MysqlTransactions transactions;

	MysqlBulk(JdbcClient jdbc, MysqlTransactions transactions) {
		this.jdbc = jdbc;
		this.transactions = transactions;
	}

	/**
	 * The dead jobs whose unique key no unfinished job of their kind holds; of several in the batch with the same
	 * kind and key, only the newest, which then holds the key (PostgresBulk says why). A job with a concurrency key
	 * goes back to blocked and waits for a slot, as a new one does.
	 */
	@Override
	public List<ChangedJob> retryDeadAll(Collection<Long> ids) {
		if (ids.isEmpty()) {
			return List.of();
		}
		return transactions.run(() -> {
			List<ChangedJob> retried = jdbc.sql("""
					SELECT id, queue, concurrency_key FROM jobqueue_job j
					WHERE j.id IN (:ids) AND j.state = 'dead'
					  AND NOT EXISTS (SELECT 1 FROM jobqueue_job holder
					                  WHERE holder.kind = j.kind AND holder.unique_key = j.unique_key AND holder.id <> j.id
					                    AND %s)
					  AND NOT EXISTS (SELECT 1 FROM jobqueue_job newer
					                  WHERE newer.id IN (:ids) AND newer.id > j.id AND newer.state = 'dead'
					                    AND newer.kind = j.kind AND newer.unique_key = j.unique_key)
					ORDER BY id
					FOR UPDATE""".formatted(TRANSITIONS.holdsUniqueKey("holder")))
				.param("ids", List.copyOf(ids))
				.query(MysqlRows::changed)
				.list();
			if (!retried.isEmpty()) {
				jdbc.sql("""
						UPDATE jobqueue_job
						SET state = %s, attempt = 0,
						    run_at = UTC_TIMESTAMP(6), finished_at = NULL
						WHERE id IN (:ids)""".formatted(TRANSITIONS.entryState("")))
					.param("ids", retried.stream().map(ChangedJob::id).toList())
					.update();
			}
			return retried;
		});
	}

	/** As {@link #cancel}, row by row: a running job keeps its worker's lease. */
	@Override
	public List<ChangedJob> cancelAll(Collection<Long> ids) {
		if (ids.isEmpty()) {
			return List.of();
		}
		return transactions.run(() -> {
			List<ChangedJob> cancelled = jdbc.sql("""
					SELECT id, queue, concurrency_key FROM jobqueue_job
					WHERE id IN (:ids)
					  AND %s
					ORDER BY id
					FOR UPDATE""".formatted(TRANSITIONS.cancellable("")))
				.param("ids", List.copyOf(ids))
				.query(MysqlRows::changed)
				.list();
			if (!cancelled.isEmpty()) {
				jdbc.sql("""
						UPDATE jobqueue_job
						SET state = 'cancelled', finished_at = UTC_TIMESTAMP(6)
						WHERE id IN (:ids)""").param("ids", cancelled.stream().map(ChangedJob::id).toList()).update();
			}
			return cancelled;
		});
	}

	/** Finished jobs only, and never a dead one that holds its key's slot (PostgresBulk says why). */
	@Override
	public List<ChangedJob> deleteFinished(Collection<Long> ids) {
		if (ids.isEmpty()) {
			return List.of();
		}
		return transactions.run(() -> {
			List<ChangedJob> deleted = jdbc.sql("""
					SELECT id, queue, concurrency_key FROM jobqueue_job
					WHERE id IN (:ids) AND state IN ('succeeded', 'cancelled', 'dead')
					  AND (concurrency_key IS NULL OR NOT %s)
					ORDER BY id
					FOR UPDATE""".formatted(TRANSITIONS.holdsSlot("")))
				.param("ids", List.copyOf(ids))
				.query(MysqlRows::changed)
				.list();
			if (!deleted.isEmpty()) {
				List<Long> deletedIds = deleted.stream().map(ChangedJob::id).toList();
				jdbc.sql("DELETE FROM jobqueue_job WHERE id IN (:ids)").param("ids", deletedIds).update();
				jdbc.sql("DELETE FROM jobqueue_job_step WHERE job_id IN (:ids)").param("ids", deletedIds).update();
				jdbc.sql("DELETE FROM jobqueue_job_dependency WHERE job_id IN (:ids)").param("ids", deletedIds).update();
				jdbc.sql("DELETE FROM jobqueue_batch_job WHERE job_id IN (:ids)").param("ids", deletedIds).update();
			}
			return deleted;
		});
	}

	/**
	 * A running job keeps its worker's lease, and with it its key's slot, until the worker writes the handler's
	 * end ({@code Transition.CANCEL}); the worker finds its cancel by the lease token ({@code cancelled}); the
	 * state change alone fences off that worker's outcome, which every write checks.
	 */
	@Override
	public boolean cancel(long id) {
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET state = 'cancelled', finished_at = UTC_TIMESTAMP(6)
				WHERE id = :id
				  AND %s""".formatted(TRANSITIONS.cancellable("")))
			.param("id", id)
			.update() == 1;
	}

	/** The bulk form for one job: MySQL's UPDATE may not read its own table in the NOT EXISTS this needs. */
	@Override
	public boolean retryDead(long id) {
		return !retryDeadAll(List.of(id)).isEmpty();
	}
}
