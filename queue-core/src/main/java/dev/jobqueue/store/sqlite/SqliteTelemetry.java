package dev.jobqueue.store.sqlite;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobState;
import dev.jobqueue.store.FinishedMinute;
import dev.jobqueue.store.JobCounts;
import dev.jobqueue.store.TableHealth;
import dev.jobqueue.store.TelemetryStore;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/**
 * The counts by queue and state, and the wait of each queue's oldest due job, read as on PostgreSQL
 * ({@code PostgresTelemetry}); SQLite keeps no dead row versions, so there is no table health to read.
 */
final class SqliteTelemetry implements TelemetryStore {

	/**
	 * The finished states' counts on SQLite: {@link JobCounts#FINISHED} with its loose scan of the queues held
	 * to the {@code (queue, state, id)} index (INDEXED BY). SQLite, with no statistics, picks among indexes of the
	 * same rows by rules of thumb: while V25 still had an index of every finished row by {@code (state, id)}, which
	 * is not in queue order, it took that one, read every finished row and sorted them, once per queue.
	 */
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

	/**
	 * One search of the ready index per priority (0 - 9 by the column's CHECK), the first entry of each in run_at
	 * order, as the claim walks it but without its filters on kinds and pauses: the wait of a paused queue, or of a
	 * kind no node serves, is what this shows. Zero when no ready job of the queue is due.
	 */
	static final String OLDEST_READY = """
			WITH priorities (priority) AS (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9))
			SELECT max(0, coalesce(CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
			                       - min((SELECT run_at FROM jobqueue_job
			                              WHERE state = 'ready' AND queue = :queue AND priority = priorities.priority
			                              ORDER BY run_at
			                              LIMIT 1)), 0))
			FROM priorities""";

	/** The job {@link #OLDEST_READY} measures, by the same probes: the earliest due of each priority's first. */
	static final String OLDEST_READY_JOB = """
			WITH priorities (priority) AS (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)),
			oldest (id) AS (
			    SELECT (SELECT id FROM jobqueue_job
			            WHERE state = 'ready' AND queue = :queue AND priority = priorities.priority
			            ORDER BY run_at
			            LIMIT 1)
			    FROM priorities
			)
			SELECT j.id FROM oldest JOIN jobqueue_job j ON j.id = oldest.id
			ORDER BY j.run_at, j.id
			LIMIT 1""";

	/**
	 * The finished index walked backwards from now down to the first of the minutes asked for, at most
	 * {@link FinishedMinute#CAP} rows, as on PostgreSQL ({@code PostgresTelemetry}). INDEXED BY, as the pruner's:
	 * with no statistics SQLite might take the search's index of the same finished rows by queue and state, and
	 * sort every one of them.
	 */
	static final String FINISHED_PER_MINUTE = """
			SELECT queue, finished_at / 60000 * 60000 AS minute,
			       sum(state = 'succeeded'), sum(state = 'cancelled'), sum(state = 'dead')
			FROM (SELECT queue, state, finished_at FROM jobqueue_job INDEXED BY jobqueue_job_finished_idx
			      WHERE state IN ('succeeded', 'cancelled', 'dead')
			        AND finished_at >= (CAST(round(unixepoch('subsec') * 1000) AS INTEGER) / 60000 - :minutes + 1) * 60000
			      ORDER BY finished_at DESC
			      LIMIT :cap)
			GROUP BY queue, minute
			ORDER BY queue, minute""";

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteTelemetry(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	@Override
	public List<FinishedMinute> finishedPerMinute(int minutes) {
		return statements.read("finished per minute", () -> jdbc.sql(FINISHED_PER_MINUTE)
			.param("minutes", FinishedMinute.checkMinutes(minutes))
			.param("cap", FinishedMinute.CAP)
			.query((rs, row) -> new FinishedMinute(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)), rs.getLong(3),
					rs.getLong(4), rs.getLong(5)))
			.list());
	}

	@Override
	public Duration oldestReadyAge(String queue) {
		return Duration.ofMillis(statements.read("oldest ready",
				() -> jdbc.sql(OLDEST_READY).param("queue", queue).query(Long.class).single()));
	}

	@Override
	public Optional<Long> oldestReadyJob(String queue) {
		return statements.read("oldest ready job",
				() -> jdbc.sql(OLDEST_READY_JOB).param("queue", queue).query(Long.class).optional());
	}

	@Override
	public Map<String, Map<JobState, Long>> countByQueueAndState() {
		return statements.read("count", () -> JobCounts.everyState(jdbc, FINISHED));
	}

	@Override
	public Map<String, Map<JobState, Long>> countUnfinishedByQueue() {
		return statements.read("count", () -> JobCounts.query(jdbc, JobCounts.UNFINISHED));
	}

	/** SQLite rewrites rows in place: it keeps no dead row versions for a vacuum to take out. */
	@Override
	public Optional<TableHealth> tableHealth() {
		return Optional.empty();
	}
}
