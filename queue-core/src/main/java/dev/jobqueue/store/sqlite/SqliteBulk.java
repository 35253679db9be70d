package dev.jobqueue.store.sqlite;

import static dev.jobqueue.store.sqlite.SqliteDialect.TRANSITIONS;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ChangedJob;
import dev.jobqueue.store.OperatorWrites;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/**
 * The operator's bulk operations on SQLite, as on PostgreSQL ({@code PostgresBulk}): a batch of jobs named by
 * id, changed in one statement under the conditions of the one-job form. One statement holds the write lock
 * once for the whole batch, which is why a batch is bounded: a claim waits for it.
 */
final class SqliteBulk implements OperatorWrites {

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteBulk(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	/**
	 * As {@link #retryDead}, row by row; the second NOT EXISTS retries only the newest of the
	 * batch's dead jobs of one kind and unique key, which then holds the key (PostgresBulk says why).
	 */
	@Override
	public List<ChangedJob> retryDeadAll(Collection<Long> ids) {
		return statements.write("retry dead jobs", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = %s, attempt = 0,
				    run_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER), finished_at = NULL
				WHERE id IN (SELECT value FROM json_each(:ids)) AND state = 'dead'
				  AND NOT EXISTS (SELECT 1 FROM jobqueue_job AS holder
				                  WHERE holder.kind = jobqueue_job.kind AND holder.unique_key = jobqueue_job.unique_key
				                    AND holder.id <> jobqueue_job.id
				                    AND %s)
				  AND NOT EXISTS (SELECT 1 FROM jobqueue_job AS newer
				                  WHERE newer.id IN (SELECT value FROM json_each(:ids)) AND newer.id > jobqueue_job.id
				                    AND newer.state = 'dead' AND newer.kind = jobqueue_job.kind
				                    AND newer.unique_key = jobqueue_job.unique_key)
				RETURNING id, queue, concurrency_key""".formatted(
				TRANSITIONS.entryState(""), TRANSITIONS.holdsUniqueKey("holder")))
			.param("ids", SqliteRows.idsJson(ids))
			.query(SqliteBulk::changed)
			.list());
	}

	/** As {@link #cancel}, row by row: a running job keeps its worker's lease. */
	@Override
	public List<ChangedJob> cancelAll(Collection<Long> ids) {
		return statements.write("cancel jobs", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'cancelled', finished_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
				WHERE id IN (SELECT value FROM json_each(:ids))
				  AND %s
				RETURNING id, queue, concurrency_key""".formatted(TRANSITIONS.cancellable("")))
			.param("ids", SqliteRows.idsJson(ids))
			.query(SqliteBulk::changed)
			.list());
	}

	/** Finished jobs only, and never a dead one that holds its key's slot (PostgresBulk says why). */
	@Override
	public List<ChangedJob> deleteFinished(Collection<Long> ids) {
		return statements.write("delete finished jobs", () -> jdbc.sql("""
				DELETE FROM jobqueue_job
				WHERE id IN (SELECT value FROM json_each(:ids)) AND state IN ('succeeded', 'cancelled', 'dead')
				  AND (concurrency_key IS NULL OR NOT %s)
				RETURNING id, queue, concurrency_key""".formatted(TRANSITIONS.holdsSlot("")))
			.param("ids", SqliteRows.idsJson(ids))
			.query(SqliteBulk::changed)
			.list());
	}

	private static ChangedJob changed(ResultSet rs, int row) throws SQLException {
		return new ChangedJob(rs.getLong("id"), rs.getString("queue"), rs.getString("concurrency_key"));
	}

	/**
	 * A running job keeps its worker's lease, and with it its key's slot, until the worker writes the handler's
	 * end ({@code Transition.CANCEL}); the worker finds its cancel by the lease token ({@code cancelled});
	 * the state change alone fences off that worker's outcome, which every write checks.
	 */
	@Override
	public boolean cancel(long id) {
		return statements.write("cancel", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'cancelled', finished_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
				WHERE id = :id
				  AND %s""".formatted(TRANSITIONS.cancellable("")))
			.param("id", id)
			.update()) == 1;
	}

	@Override
	public boolean retryDead(long id) {
		// A job with a concurrency key goes back to blocked and waits for a slot, as a new one does.
		// NOT EXISTS leaves the job dead when an unfinished job holds its key, which the update would break.
		return statements.write("retry dead", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = %s, attempt = 0,
				    run_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER), finished_at = NULL
				WHERE id = :id AND state = 'dead'
				  AND NOT EXISTS (SELECT 1 FROM jobqueue_job AS holder
				                  WHERE holder.kind = jobqueue_job.kind AND holder.unique_key = jobqueue_job.unique_key
				                    AND holder.id <> jobqueue_job.id
				                    AND %s)""".formatted(
				TRANSITIONS.entryState(""), TRANSITIONS.holdsUniqueKey("holder"))).param("id", id).update()) == 1;
	}
}
