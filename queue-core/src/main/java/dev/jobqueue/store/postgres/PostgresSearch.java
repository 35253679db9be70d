package dev.jobqueue.store.postgres;

import static dev.jobqueue.store.postgres.PostgresDialect.TRANSITIONS;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.store.JobCounts;
import dev.jobqueue.store.OperatorReads;

/**
 * The operator's reads on PostgreSQL: a job by id, the holder of a unique key, the schema version, and the
 * search of jobs: ids newest first, by keyset ({@code id < :before}), then the rows of a
 * page by id. Each unset filter is a parameter that is null, and {@code CAST(:x AS …) IS NULL OR …} folds
 * away in the plan made for the values bound, so a set filter is an index condition where an index has it.
 */
final class PostgresSearch implements OperatorReads {

	/** The optional filters every search shape has, beside its states, its queue and its cursor. */
	private static final String FILTERS = """
			  AND (CAST(:kind AS text) IS NULL OR kind = :kind)
			  AND (CAST(:createdFrom AS timestamptz) IS NULL OR created_at >= :createdFrom)
			  AND (CAST(:createdBefore AS timestamptz) IS NULL OR created_at < :createdBefore)
			  AND (CAST(:finishedFrom AS timestamptz) IS NULL OR finished_at >= :finishedFrom)
			  AND (CAST(:finishedBefore AS timestamptz) IS NULL OR finished_at < :finishedBefore)
			  AND (CAST(:error AS text) IS NULL OR strpos(last_error, :error) > 0)""";

	/**
	 * When every state asked for is a finished one. The literal {@code state IN (…)} is the predicate of the
	 * finished rows' {@code (queue, state, finished_at)} index, so that even a generic plan may use it: one queue's
	 * jobs of states it has many of are a range of it sorted by id, or the primary key walked newest
	 * first, which the planner chooses by its statistics. The {@code (state, id)} index of cancelled and dead rows is
	 * used by the plans made for the values bound (the ones PostgreSQL keeps, see PostgresSearchPlanTest), which
	 * prove its predicate from the state: a walk of one rare state newest first. Its predicate is not written
	 * here: beside {@code state = 'dead'} the planner multiplied the two selectivities, expected 22 of 1,000 dead
	 * jobs, and read them all and sorted them. Succeeded jobs of every queue have no index (each completion would
	 * write an entry in it) and need none: they are most of a table that keeps finished jobs, so the plan walks
	 * the primary key newest first and meets a page of them within a few pages.
	 */
	static final String FINISHED = """
			SELECT id FROM jobqueue_job
			WHERE state IN ('succeeded', 'cancelled', 'dead') AND state IN (:states) AND id < :before
			  AND (CAST(:queue AS text) IS NULL OR queue = :queue)
			%s
			ORDER BY id DESC
			LIMIT :limit""".formatted(FILTERS);

	/**
	 * One queue's jobs of finished states when they are few ({@link JobCounts#fewFinishedInQueue}): the range of the
	 * finished rows' index, read whole and sorted. The planner cannot tell that a small queue's rows are old (its
	 * statistics hold no correlation between queue and id), and walked the primary key from the newest row past every
	 * other queue's; OFFSET 0 keeps it from lifting the ORDER BY and LIMIT into the range.
	 */
	static final String FEW_FINISHED_IN_QUEUE = """
			SELECT id FROM (
			    SELECT id FROM jobqueue_job
			    WHERE state IN ('succeeded', 'cancelled', 'dead') AND state IN (:states) AND queue = :queue
			      AND id < :before
			    %s
			    OFFSET 0
			) AS few
			ORDER BY id DESC
			LIMIT :limit""".formatted(FILTERS.replace("\n", "\n    "));

	/**
	 * Any states: a walk of the primary key downwards from the cursor, or of the partial index of an
	 * unfinished state, whose rows are the backlog and the jobs in flight, not the finished ones the table keeps.
	 */
	static final String ANY = """
			SELECT id FROM jobqueue_job
			WHERE state IN (:states) AND id < :before
			  AND (CAST(:queue AS text) IS NULL OR queue = :queue)
			%s
			ORDER BY id DESC
			LIMIT :limit""".formatted(FILTERS);

	private final JdbcClient jdbc;

	PostgresSearch(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public IdSearch search(JobQuery query) {
		String statement = statement(query);
		List<String> states = query.states().stream().map(JobState::name).toList();
		return (beforeId, limit) -> jdbc.sql(statement)
			.param("states", states)
			.param("before", beforeId)
			.param("queue", query.queue())
			.param("kind", query.kind())
			.param("createdFrom", PostgresRows.timestamp(query.createdFrom()))
			.param("createdBefore", PostgresRows.timestamp(query.createdBefore()))
			.param("finishedFrom", PostgresRows.timestamp(query.finishedFrom()))
			.param("finishedBefore", PostgresRows.timestamp(query.finishedBefore()))
			.param("error", query.errorContains())
			.param("limit", limit)
			.query(Long.class)
			.list();
	}

	private String statement(JobQuery query) {
		if (JobCounts.fewFinishedInQueue(jdbc, query)) {
			return FEW_FINISHED_IN_QUEUE;
		}
		return query.onlyFinished() ? FINISHED : ANY;
	}

	@Override
	public List<Job> findAll(Collection<Long> ids) {
		if (ids.isEmpty()) {
			return List.of();
		}
		return jdbc.sql("""
				SELECT id, queue, kind, payload::text AS payload, payload_version, state, priority, run_at, attempt,
				       max_attempts, lease_owner, lease_expires_at, unique_key, last_error, result::text AS result,
				       created_at, started_at, finished_at, errors::text AS errors, concurrency_key
				FROM jobqueue_job WHERE id = ANY(CAST(:ids AS bigint[])) ORDER BY id DESC""")
			.param("ids", ids.toArray(Long[]::new))
			.query(PostgresRows::job)
			.list();
	}

	@Override
	public Optional<Job> find(long id) {
		return jdbc.sql("""
				SELECT id, queue, kind, payload::text AS payload, payload_version, state, priority, run_at, attempt,
				       max_attempts, lease_owner, lease_expires_at, unique_key, last_error, result::text AS result,
				       created_at, started_at, finished_at, errors::text AS errors, concurrency_key
				FROM jobqueue_job WHERE id = :id""")
			.param("id", id)
			.query(PostgresRows::job)
			.optional();
	}

	@Override
	public Optional<Long> holderOfUniqueKey(long id) {
		return jdbc.sql("""
				SELECT holder.id FROM jobqueue_job job
				JOIN jobqueue_job holder ON holder.kind = job.kind AND holder.unique_key = job.unique_key
				WHERE job.id = :id AND job.state = 'dead' AND holder.id <> job.id AND %s""".formatted(
				TRANSITIONS.holdsUniqueKey("holder")))
			.param("id", id)
			.query(Long.class)
			.optional();
	}

	/** to_regclass answers null for a missing table where a SELECT from it would fail the transaction. */
	@Override
	public OptionalInt schemaVersion() {
		boolean recorded = jdbc.sql("SELECT to_regclass('jobqueue_schema_version') IS NOT NULL").query(Boolean.class).single();
		return recorded ? OptionalInt.of(jdbc.sql("SELECT version FROM jobqueue_schema_version").query(Integer.class).single())
				: OptionalInt.empty();
	}
}
