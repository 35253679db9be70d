package dev.jobqueue.store.mysql;

import static dev.jobqueue.store.mysql.MysqlDialect.TRANSITIONS;

import java.sql.Types;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.store.OperatorReads;
import dev.jobqueue.store.mysql.support.MysqlValues;

/**
 * The operator's reads on MySQL: a job by id, the holder of a unique key, the schema version, and the search of
 * jobs, as on PostgreSQL ({@code PostgresSearch}): ids newest first by keyset
 * ({@code id < :before}), then the rows of a page by id. The drivers send the parameters' values in the statement's
 * text, so an unset filter's {@code :x IS NULL OR …} is folded away before the plan is chosen, and a set queue or
 * state walks the index (queue, state, id) or (state, queue, id) newest first.
 */
final class MysqlSearch implements OperatorReads {

	static final String SEARCH = """
			SELECT id FROM jobqueue_job
			WHERE state IN (:states) AND id < :before
			  AND (:queue IS NULL OR queue = :queue)
			  AND (:kind IS NULL OR kind = :kind)
			  AND (:createdFrom IS NULL OR created_at >= :createdFrom)
			  AND (:createdBefore IS NULL OR created_at < :createdBefore)
			  AND (:finishedFrom IS NULL OR finished_at >= :finishedFrom)
			  AND (:finishedBefore IS NULL OR finished_at < :finishedBefore)
			  AND (:error IS NULL OR LOCATE(:error, last_error) > 0)
			ORDER BY id DESC
			LIMIT :limit""";

	private final JdbcClient jdbc;

	MysqlSearch(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public IdSearch search(JobQuery query) {
		List<String> states = query.states().stream().map(JobState::name).toList();
		return (beforeId, limit) -> jdbc.sql(SEARCH)
			.param("states", states)
			.param("before", beforeId)
			.param("queue", query.queue(), Types.VARCHAR)
			.param("kind", query.kind(), Types.VARCHAR)
			.param("createdFrom", MysqlValues.parameter(query.createdFrom()))
			.param("createdBefore", MysqlValues.parameter(query.createdBefore()))
			.param("finishedFrom", MysqlValues.parameter(query.finishedFrom()))
			.param("finishedBefore", MysqlValues.parameter(query.finishedBefore()))
			.param("error", query.errorContains(), Types.VARCHAR)
			.param("limit", limit)
			.query(Long.class)
			.list();
	}

	@Override
	public List<Job> findAll(Collection<Long> ids) {
		if (ids.isEmpty()) {
			return List.of();
		}
		return jdbc.sql("""
				SELECT id, queue, kind, payload, payload_version, state, priority, run_at, attempt, max_attempts,
				       lease_owner, lease_expires_at, unique_key, last_error, result, created_at, started_at,
				       finished_at, errors, concurrency_key
				FROM jobqueue_job WHERE id IN (:ids) ORDER BY id DESC""")
			.param("ids", List.copyOf(ids))
			.query(MysqlRows::job)
			.list();
	}

	@Override
	public Optional<Job> find(long id) {
		return jdbc.sql("""
				SELECT id, queue, kind, payload, payload_version, state, priority, run_at, attempt, max_attempts,
				       lease_owner, lease_expires_at, unique_key, last_error, result, created_at, started_at,
				       finished_at, errors, concurrency_key
				FROM jobqueue_job WHERE id = :id""")
			.param("id", id)
			.query(MysqlRows::job)
			.optional();
	}

	@Override
	public Optional<Long> holderOfUniqueKey(long id) {
		return jdbc.sql("""
				SELECT holder.id FROM jobqueue_job job
				JOIN jobqueue_job holder ON holder.kind = job.kind AND holder.unique_key = job.unique_key
				WHERE job.id = :id AND job.state = 'dead' AND holder.id <> job.id
				  AND %s""".formatted(TRANSITIONS.holdsUniqueKey("holder")))
			.param("id", id)
			.query(Long.class)
			.optional();
	}

	/** information_schema answers for a missing table where a SELECT from it would fail. */
	@Override
	public OptionalInt schemaVersion() {
		boolean recorded = jdbc.sql("""
				SELECT count(*) FROM information_schema.tables
				WHERE table_schema = DATABASE() AND table_name = 'jobqueue_schema_version'""")
			.query(Integer.class)
			.single() > 0;
		if (!recorded) {
			return OptionalInt.empty();
		}
		return OptionalInt.of(jdbc.sql("SELECT version FROM jobqueue_schema_version").query(Integer.class).single());
	}
}
