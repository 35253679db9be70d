package dev.jobqueue.store.mysql;

import java.sql.Types;
import java.util.Collection;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;

/**
 * The search of jobs on MySQL, as on PostgreSQL ({@code PostgresSearch}): ids newest first by keyset
 * ({@code id < :before}), then the rows of a page by id. The drivers send the parameters' values in the statement's
 * text, so an unset filter's {@code :x IS NULL OR …} is folded away before the plan is chosen, and a set queue or
 * state walks the index (queue, state, id) or (state, queue, id) newest first.
 */
final class MysqlSearch {

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

	List<Long> searchIds(JobQuery query, long beforeId, int limit) {
		return jdbc.sql(SEARCH)
			.param("states", query.states().stream().map(JobState::name).toList())
			.param("before", beforeId)
			.param("queue", query.queue(), Types.VARCHAR)
			.param("kind", query.kind(), Types.VARCHAR)
			.param("createdFrom", MysqlRows.parameter(query.createdFrom()))
			.param("createdBefore", MysqlRows.parameter(query.createdBefore()))
			.param("finishedFrom", MysqlRows.parameter(query.finishedFrom()))
			.param("finishedBefore", MysqlRows.parameter(query.finishedBefore()))
			.param("error", query.errorContains(), Types.VARCHAR)
			.param("limit", limit)
			.query(Long.class)
			.list();
	}

	List<Job> findAll(Collection<Long> ids) {
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
}
