package dev.jobqueue.store.sqlite;

import static dev.jobqueue.store.sqlite.SqliteDialect.TRANSITIONS;

import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.store.JobCounts;
import dev.jobqueue.store.OperatorReads;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/**
 * The search of jobs on SQLite, as on PostgreSQL ({@code PostgresSearch}): ids newest first by keyset, then
 * the rows of a page by id. SQLite plans a statement once, whatever its parameters, so an unset filter's
 * {@code :x IS NULL OR …} stays a condition on each row walked rather than an index condition: the state,
 * always given, and the queue, when set, pick the text and so the index.
 */
final class SqliteSearch implements OperatorReads {

	/**
	 * One rare finished state, cancelled or dead, in every queue. SQLite uses a partial index only when the
	 * statement holds the index's predicate as written, hence the literal {@code state IN (…)}: with it, a walk
	 * of their {@code (state, id)} index downwards from the cursor, with no sort.
	 */
	static final String CANCELLED_OR_DEAD = """
			SELECT id FROM jobqueue_job
			WHERE state IN ('cancelled', 'dead') AND state IN (:states) AND id < :before
			  AND (:queue IS NULL OR queue = :queue)
			  AND (:kind IS NULL OR kind = :kind)
			  AND (:createdFrom IS NULL OR created_at >= :createdFrom)
			  AND (:createdBefore IS NULL OR created_at < :createdBefore)
			  AND (:finishedFrom IS NULL OR finished_at >= :finishedFrom)
			  AND (:finishedBefore IS NULL OR finished_at < :finishedBefore)
			  AND (:error IS NULL OR instr(last_error, :error) > 0)
			ORDER BY id DESC
			LIMIT :limit""";

	/**
	 * One queue's jobs of finished states when they are few ({@link JobCounts#fewFinishedInQueue}), as on PostgreSQL:
	 * the literal {@code state IN (…)} of the index of finished rows by {@code (queue, state, finished_at)} and the
	 * queue as an equality, not {@code :queue IS NULL OR …}, which SQLite cannot make an index condition. The ranges of
	 * the queue's states in that index, sorted by id: the walk of the rowid would read every other queue's newer rows
	 * before it met those of a small queue whose jobs are old.
	 */
	static final String FEW_FINISHED_IN_QUEUE = """
			SELECT id FROM jobqueue_job
			WHERE state IN ('succeeded', 'cancelled', 'dead') AND state IN (:states) AND queue = :queue
			  AND id < :before
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

	private static final Set<JobState> RARE = EnumSet.of(JobState.cancelled, JobState.dead);

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteSearch(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	/**
	 * The range of one queue's finished jobs when they are few; else, for one rare finished state, the walk of its
	 * index, and for anything else the walk of the rowid down from the cursor, which stops at a page. For several
	 * states, SQLite looks each up in an index and sorts all their rows by id before it returns the first page:
	 * every batch of a bulk delete of finished jobs would read them all. Succeeded jobs have no index in id order (a
	 * completion would pay for its entry): they are most of a table that keeps finished jobs, and the walk of the
	 * rowid meets a page of them within a few pages.
	 */
	static String statement(JobQuery query, boolean fewFinishedInQueue) {
		if (fewFinishedInQueue) {
			return FEW_FINISHED_IN_QUEUE;
		}
		return query.states().size() == 1 && RARE.containsAll(query.states()) ? CANCELLED_OR_DEAD : ANY;
	}

	@Override
	public IdSearch search(JobQuery query) {
		String statement = statement(query,
				statements.read("search's count", () -> JobCounts.fewFinishedInQueue(jdbc, query)));
		List<String> states = query.states().stream().map(JobState::name).toList();
		return (beforeId, limit) -> statements.read("search", () -> jdbc.sql(statement)
			.param("states", states)
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

	@Override
	public List<Job> findAll(Collection<Long> ids) {
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

	@Override
	public Optional<Job> find(long id) {
		return statements.read("find", () -> jdbc.sql("""
				SELECT id, queue, kind, payload, payload_version, state, priority, run_at, attempt, max_attempts,
				       lease_owner, lease_expires_at, unique_key, last_error, result, created_at, started_at,
				       finished_at, errors, concurrency_key
				FROM jobqueue_job WHERE id = :id""")
			.param("id", id)
			.query(SqliteRows::job)
			.optional());
	}

	@Override
	public Optional<Long> holderOfUniqueKey(long id) {
		return statements.read("holder of unique key", () -> jdbc.sql("""
				SELECT holder.id FROM jobqueue_job AS job
				JOIN jobqueue_job AS holder ON holder.kind = job.kind AND holder.unique_key = job.unique_key
				WHERE job.id = :id AND job.state = 'dead' AND holder.id <> job.id AND %s""".formatted(
				TRANSITIONS.holdsUniqueKey("holder")))
			.param("id", id)
			.query(Long.class)
			.optional());
	}

	@Override
	public OptionalInt schemaVersion() {
		return statements.read("schema version", () -> {
			boolean recorded = jdbc.sql("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'jobqueue_schema_version'")
				.query(Integer.class)
				.single() > 0;
			return recorded ? OptionalInt.of(jdbc.sql("SELECT version FROM jobqueue_schema_version").query(Integer.class).single())
					: OptionalInt.empty();
		});
	}
}
