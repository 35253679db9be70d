package dev.jobqueue.store.sqlite;

import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobState;
import dev.jobqueue.store.JobCounts;

/**
 * The counts by queue and state on SQLite: {@link JobCounts#FINISHED} with its loose scan of the queues held
 * to the {@code (queue, state, id)} index (INDEXED BY). SQLite, with no statistics, picks among indexes of the
 * same rows by rules of thumb: while V25 still had an index of every finished row by {@code (state, id)}, which
 * is not in queue order, it took that one, read every finished row and sorted them, once per queue.
 */
final class SqliteCounts {

	static final String FINISHED = """
			WITH RECURSIVE queues (queue) AS (
			    SELECT (SELECT queue FROM jobqueue_job INDEXED BY jobqueue_job_finished_queue_idx
			            WHERE state IN ('succeeded', 'cancelled', 'dead')
			            ORDER BY queue LIMIT 1)
			    UNION ALL
			    SELECT (SELECT j.queue FROM jobqueue_job AS j INDEXED BY jobqueue_job_finished_queue_idx
			            WHERE j.state IN ('succeeded', 'cancelled', 'dead') AND j.queue > queues.queue
			            ORDER BY j.queue LIMIT 1)
			    FROM queues WHERE queues.queue IS NOT NULL
			), finished (state) AS (
			    SELECT 'succeeded' UNION ALL SELECT 'cancelled' UNION ALL SELECT 'dead'
			), counted AS (
			    SELECT queues.queue, finished.state,
			           (SELECT count(*) FROM (SELECT 1 FROM jobqueue_job AS j INDEXED BY jobqueue_job_finished_queue_idx
			                                  WHERE j.state IN ('succeeded', 'cancelled', 'dead')
			                                    AND j.queue = queues.queue AND j.state = finished.state
			                                  LIMIT :cap) capped) AS n
			    FROM queues CROSS JOIN finished
			    WHERE queues.queue IS NOT NULL
			)
			SELECT queue, state, n FROM counted WHERE n > 0""";

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteCounts(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	Map<String, Map<JobState, Long>> everyState() {
		return statements.read("count", () -> JobCounts.everyState(jdbc, FINISHED));
	}
}
