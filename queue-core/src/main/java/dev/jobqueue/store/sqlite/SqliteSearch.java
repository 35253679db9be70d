package dev.jobqueue.store.sqlite;

import java.util.Collection;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;

/**
 * The search of jobs on SQLite, as on PostgreSQL ({@code PostgresSearch}): ids newest first by keyset, then
 * the rows of a page by id. SQLite plans a statement once, whatever its parameters, so an unset filter's
 * {@code :x IS NULL OR …} stays a condition on each row walked rather than an index condition; the state,
 * always given, is the one that picks the index.
 */
final class SqliteSearch {

	/**
	 * When every state asked for is a finished one. SQLite uses a partial index only when the statement holds
	 * the index's predicate as written, hence the literal {@code state IN (…)}: with it, one state is a walk of
	 * the finished rows' {@code (state, id)} index downwards from the cursor, with no sort.
	 */
	static final String FINISHED = """
			SELECT id FROM jobqueue_job
			WHERE state IN ('succeeded', 'cancelled', 'dead') AND state IN (:states) AND id < :before
			  AND (:queue IS NULL OR queue = :queue)
			  AND (:kind IS NULL OR kind = :kind)
			  AND (:createdFrom IS NULL OR created_at >= :createdFrom)
			  AND (:createdBefore IS NULL OR created_at < :createdBefore)
			  AND (:finishedFrom IS NULL OR finished_at >= :finishedFrom)
			  AND (:finishedBefore IS NULL OR finished_at < :finishedBefore)
			  AND (:error IS NULL OR instr(last_error, :error) > 0)
			ORDER BY id DESC
			LIMIT :limit""";

	/** Any states: a walk of the table's rowid downwards from the cursor, stopping at a page. */
	static final String ANY = """
			SELECT id FROM jobqueue_job
			WHERE state IN (:states) AND id < :before
			  AND (:queue IS NULL OR queue = :queue)
			  AND (:kind IS NULL OR kind = :kind)
			  AND (:createdFrom IS NULL OR created_at >= :createdFrom)
			  AND (:createdBefore IS NULL OR created_at < :createdBefore)
			  AND (:finishedFrom IS NULL OR finished_at >= :finishedFrom)
			  AND (:finishedBefore IS NULL OR finished_at < :finishedBefore)
			  AND (:error IS NULL OR instr(last_error, :error) > 0)
			ORDER BY id DESC
			LIMIT :limit""";

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteSearch(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	/**
	 * {@link #FINISHED} for one finished state only. For several, SQLite looks each state up in the index and
	 * sorts all their rows by id before it returns the first page: every batch of a bulk delete of finished
	 * jobs would read them all. The walk of the table's rowid stops at a page.
	 */
	static String statement(JobQuery query) {
		return query.onlyFinished() && query.states().size() == 1 ? FINISHED : ANY;
	}

	List<Long> searchIds(JobQuery query, long beforeId, int limit) {
		return statements.read("search", () -> jdbc.sql(statement(query))
			.param("states", query.states().stream().map(JobState::name).toList())
			.param("before", beforeId)
			.param("queue", query.queue())
			.param("kind", query.kind())
			.param("createdFrom", SqliteRows.millis(query.createdFrom()))
			.param("createdBefore", SqliteRows.millis(query.createdBefore()))
			.param("finishedFrom", SqliteRows.millis(query.finishedFrom()))
			.param("finishedBefore", SqliteRows.millis(query.finishedBefore()))
			.param("error", query.errorContains())
			.param("limit", limit)
			.query(Long.class)
			.list());
	}

	List<Job> findAll(Collection<Long> ids) {
		if (ids.isEmpty()) {
			return List.of();
		}
		return statements.read("find all", () -> jdbc.sql("""
				SELECT id, queue, kind, payload, payload_version, state, priority, run_at, attempt, max_attempts,
				       lease_owner, lease_expires_at, unique_key, last_error, result, created_at, started_at,
				       finished_at, errors, concurrency_key
				FROM jobqueue_job WHERE id IN (SELECT value FROM json_each(:ids)) ORDER BY id DESC""")
			.param("ids", SqliteRows.idsJson(ids))
			.query(SqliteRows::job)
			.list());
	}
}
