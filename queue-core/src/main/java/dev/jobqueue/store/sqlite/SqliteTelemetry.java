package dev.jobqueue.store.sqlite;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
	 * The queues that have finished jobs, as the recursive common table expression {@code queues (queue)}, whose
	 * last row is a null: a loose scan of the index of finished rows by {@code (queue, state, finished_at)}, one
	 * descent per queue (the next queue name above the last one), not a read of its entries. The counts, the jobs
	 * finished per minute and the pruner ({@code SqliteMaintenance}) each read the ranges of a queue's finished
	 * states from there. INDEXED BY here and in those statements, as SQLite with no statistics picks among indexes
	 * by rules of thumb, and with it a statement the index cannot serve fails to prepare rather than reads the table.
	 */
	static final String FINISHED_QUEUES = """
			queues (queue) AS (
			    SELECT (SELECT queue FROM jobqueue_job INDEXED BY jobqueue_job_queue_finished_idx
			            WHERE state IN ('succeeded', 'cancelled', 'dead')
			            ORDER BY queue LIMIT 1)
			    UNION ALL
			    SELECT (SELECT j.queue FROM jobqueue_job AS j INDEXED BY jobqueue_job_queue_finished_idx
			            WHERE j.state IN ('succeeded', 'cancelled', 'dead') AND j.queue > queues.queue
			            ORDER BY j.queue LIMIT 1)
			    FROM queues WHERE queues.queue IS NOT NULL
			)""";

	/**
	 * The finished states' counts on SQLite: {@link JobCounts#FINISHED}, its loose scan of the queues and each of
	 * its counts, a range of {@code (queue, state)}, held to the index of finished rows (see {@link #FINISHED_QUEUES}).
	 */
	static final String FINISHED = """
			WITH RECURSIVE %s, finished (state) AS (
			    SELECT 'succeeded' UNION ALL SELECT 'cancelled' UNION ALL SELECT 'dead'
			), counted AS (
			    SELECT queues.queue, finished.state,
			           (SELECT count(*) FROM (SELECT 1 FROM jobqueue_job AS j INDEXED BY jobqueue_job_queue_finished_idx
			                                  WHERE j.state IN ('succeeded', 'cancelled', 'dead')
			                                    AND j.queue = queues.queue AND j.state = finished.state
			                                  LIMIT :cap) capped) AS n
			    FROM queues CROSS JOIN finished
			    WHERE queues.queue IS NOT NULL
			)
			SELECT queue, state, n FROM counted WHERE n > 0""".formatted(FINISHED_QUEUES);

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
	 * The queues with finished jobs ({@link #FINISHED_QUEUES}), in order, each with the start of the first of the last
	 * {@code :minutes} minutes, the current one included: read once by the database's clock (materialized), so that
	 * every queue's minutes are the same ones.
	 */
	static final String QUEUES_WITH_FINISHED_JOBS = """
			WITH RECURSIVE %s, first (minute) AS MATERIALIZED (
			    SELECT (CAST(round(unixepoch('subsec') * 1000) AS INTEGER) / 60000 - :minutes + 1) * 60000
			)
			SELECT queues.queue, first.minute FROM queues CROSS JOIN first
			WHERE queues.queue IS NOT NULL
			ORDER BY queues.queue""".formatted(FINISHED_QUEUES);

	/**
	 * One queue's finished jobs by minute and state: each state's range of {@code (queue, state)} in the index of
	 * finished rows (see {@link #FINISHED_QUEUES}), walked backwards from its newest entry down to the first minute
	 * asked for, at most {@code :cap} entries: the index's order is the walk's, so the limit stops it. SQLite has no
	 * lateral join, by which one statement could give each queue's ranges a limit of their own, so it runs per queue.
	 */
	static final String FINISHED_PER_MINUTE = """
			SELECT finished_at / 60000 * 60000 AS minute,
			       sum(state = 'succeeded'), sum(state = 'cancelled'), sum(state = 'dead')
			FROM (SELECT * FROM (SELECT state, finished_at FROM jobqueue_job INDEXED BY jobqueue_job_queue_finished_idx
			                     WHERE state IN ('succeeded', 'cancelled', 'dead') AND queue = :queue
			                       AND state = 'succeeded' AND finished_at >= :firstMinute
			                     ORDER BY finished_at DESC
			                     LIMIT :cap)
			      UNION ALL
			      SELECT * FROM (SELECT state, finished_at FROM jobqueue_job INDEXED BY jobqueue_job_queue_finished_idx
			                     WHERE state IN ('succeeded', 'cancelled', 'dead') AND queue = :queue
			                       AND state = 'cancelled' AND finished_at >= :firstMinute
			                     ORDER BY finished_at DESC
			                     LIMIT :cap)
			      UNION ALL
			      SELECT * FROM (SELECT state, finished_at FROM jobqueue_job INDEXED BY jobqueue_job_queue_finished_idx
			                     WHERE state IN ('succeeded', 'cancelled', 'dead') AND queue = :queue
			                       AND state = 'dead' AND finished_at >= :firstMinute
			                     ORDER BY finished_at DESC
			                     LIMIT :cap))
			GROUP BY minute
			ORDER BY minute""";

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteTelemetry(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	/**
	 * {@link #FINISHED_PER_MINUTE} for each queue with finished jobs, over the minutes {@link
	 * #QUEUES_WITH_FINISHED_JOBS} reads. The cap, {@link FinishedMinute#CAP}, is per queue and state: past it, only
	 * that queue and state's oldest minutes are counted short (or left out).
	 */
	@Override
	public List<FinishedMinute> finishedPerMinute(int minutes) {
		FinishedMinute.checkMinutes(minutes);
		return statements.read("finished per minute", () -> {
			List<FinishedMinute> finished = new ArrayList<>();
			for (QueueSince queue : jdbc.sql(QUEUES_WITH_FINISHED_JOBS)
				.param("minutes", minutes)
				.query((rs, row) -> new QueueSince(rs.getString(1), rs.getLong(2)))
				.list()) {
				finished.addAll(jdbc.sql(FINISHED_PER_MINUTE)
					.param("queue", queue.name())
					.param("firstMinute", queue.firstMinute())
					.param("cap", FinishedMinute.CAP)
					.query((rs, row) -> new FinishedMinute(queue.name(), Instant.ofEpochMilli(rs.getLong(1)),
							rs.getLong(2), rs.getLong(3), rs.getLong(4)))
					.list());
			}
			return finished;
		});
	}

	/** A queue with finished jobs, and the first minute (epoch milliseconds) of those its jobs are counted in. */
	private record QueueSince(String name, long firstMinute) {
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
