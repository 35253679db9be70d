package dev.jobqueue.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;

/**
 * The counting statements, the same on both databases, and the map they fill. None reads every row: the
 * unfinished states are counted from the partial indexes that hold just their rows, the finished ones up to
 * {@link #FINISHED_CAP}.
 */
public final class JobCounts {

	/**
	 * How far each finished state of each queue is counted: an index-only walk of at most this many entries
	 * of the finished rows' index, a few milliseconds, where an exact count read every finished row the table
	 * keeps (a million after a day at 12 jobs a second).
	 */
	public static final int FINISHED_CAP = 10_000;

	/** Whether {@code count} of {@code state} stopped at the cap, so that it means at least that many. */
	public static boolean atLeast(JobState state, long count) {
		return state.isFinished() && count >= FINISHED_CAP;
	}

	/**
	 * The queues that have finished jobs, as the recursive common table expression {@code queues (queue)}, whose
	 * last row is a null: a loose scan of the index of finished rows by {@code (queue, state, finished_at)}, one
	 * descent per queue (the next queue name above the last one), not a read of its entries. The counts, the pruner
	 * and the jobs finished per minute on PostgreSQL read the ranges of a queue's finished states from there. The
	 * literal {@code state IN (…)} repeats the index's predicate.
	 */
	public static final String FINISHED_QUEUES = """
			queues (queue) AS (
			    SELECT (SELECT queue FROM jobqueue_job WHERE state IN ('succeeded', 'cancelled', 'dead')
			            ORDER BY queue LIMIT 1)
			    UNION ALL
			    SELECT (SELECT j.queue FROM jobqueue_job j
			            WHERE j.state IN ('succeeded', 'cancelled', 'dead') AND j.queue > queues.queue
			            ORDER BY j.queue LIMIT 1)
			    FROM queues WHERE queues.queue IS NOT NULL
			)""";

	/**
	 * Succeeded, cancelled and dead, each counted up to {@code :cap} per queue, from the index of finished rows
	 * by {@code (queue, state, finished_at)}, the queues found by {@link #FINISHED_QUEUES}. Each literal
	 * {@code state IN (…)} repeats the index's predicate, which SQLite needs to see as is to use a partial index.
	 * SQLite runs it as {@code SqliteTelemetry.FINISHED}, which names the index of the loose scan.
	 */
	public static final String FINISHED = """
			WITH RECURSIVE %s, finished (state) AS (
			    SELECT 'succeeded' UNION ALL SELECT 'cancelled' UNION ALL SELECT 'dead'
			), counted AS (
			    SELECT queues.queue, finished.state,
			           (SELECT count(*) FROM (SELECT 1 FROM jobqueue_job j
			                                  WHERE j.state IN ('succeeded', 'cancelled', 'dead')
			                                    AND j.queue = queues.queue AND j.state = finished.state
			                                  LIMIT :cap) capped) AS n
			    FROM queues CROSS JOIN finished
			    WHERE queues.queue IS NOT NULL
			)
			SELECT queue, state, n FROM counted WHERE n > 0""".formatted(FINISHED_QUEUES);

	/**
	 * Waiting, blocked, ready and running only, each part answered by the partial index that holds its rows: the
	 * waiting index, the blocked index, the ready index, and the reaper's index of the rows with a lease expiry,
	 * which are the running ones (the condition on the expiry is what lets the planner use that index).
	 */
	public static final String UNFINISHED = """
			SELECT queue, 'waiting', count(*) FROM jobqueue_job WHERE state = 'waiting' GROUP BY queue
			UNION ALL
			SELECT queue, 'blocked', count(*) FROM jobqueue_job WHERE state = 'blocked' GROUP BY queue
			UNION ALL
			SELECT queue, 'ready', count(*) FROM jobqueue_job WHERE state = 'ready' GROUP BY queue
			UNION ALL
			SELECT queue, 'running', count(*) FROM jobqueue_job
			WHERE lease_expires_at IS NOT NULL AND state = 'running' GROUP BY queue""";

	/**
	 * One queue's jobs of the finished states a search asks for, each flagged by {@code :succeeded},
	 * {@code :cancelled} and {@code :dead}, counted up to {@link #FINISHED_CAP} per state: one range of the index of
	 * finished rows per state, in its order, so that the plan reads the index (a scan of the table, stopped by the
	 * limit, looked cheaper to PostgreSQL's generic plan). Every finished row has its {@code finished_at}; the
	 * condition on it makes the walk a range in SQLite's plan, which otherwise read the queue's whole range of the
	 * state and sorted it. A state not asked for is skipped by its false flag. The limit is in the text: as a
	 * parameter, the generic plan took a tenth of the rows for it.
	 */
	public static final String FINISHED_IN_QUEUE = """
			SELECT count(*) FROM (
			    SELECT 1 FROM (SELECT 1 FROM jobqueue_job
			                   WHERE state IN ('succeeded', 'cancelled', 'dead') AND queue = :queue
			                     AND state = 'succeeded' AND :succeeded AND finished_at IS NOT NULL
			                   ORDER BY finished_at LIMIT %1$d) AS succeeded
			    UNION ALL
			    SELECT 1 FROM (SELECT 1 FROM jobqueue_job
			                   WHERE state IN ('succeeded', 'cancelled', 'dead') AND queue = :queue
			                     AND state = 'cancelled' AND :cancelled AND finished_at IS NOT NULL
			                   ORDER BY finished_at LIMIT %1$d) AS cancelled
			    UNION ALL
			    SELECT 1 FROM (SELECT 1 FROM jobqueue_job
			                   WHERE state IN ('succeeded', 'cancelled', 'dead') AND queue = :queue
			                     AND state = 'dead' AND :dead AND finished_at IS NOT NULL
			                   ORDER BY finished_at LIMIT %1$d) AS dead
			) AS counted""".formatted(FINISHED_CAP);

	private JobCounts() {
	}

	/**
	 * Whether {@code query} asks for one queue's finished jobs, fewer than {@link #FINISHED_CAP} of them, by
	 * {@link #FINISHED_IN_QUEUE}. A search then reads their range of the index of finished rows whole and sorts it
	 * by id: a walk of the table newest first would pass every other queue's rows before it met those of a small
	 * queue whose jobs are old. Past the cap, the walk meets a page of them soon, where the sort would read them all.
	 */
	public static boolean fewFinishedInQueue(JdbcClient jdbc, JobQuery query) {
		if (query.queue() == null || !query.onlyFinished()) {
			return false;
		}
		return jdbc.sql(FINISHED_IN_QUEUE)
			.param("queue", query.queue())
			.param("succeeded", query.states().contains(JobState.succeeded))
			.param("cancelled", query.states().contains(JobState.cancelled))
			.param("dead", query.states().contains(JobState.dead))
			.query(Long.class)
			.single() < FINISHED_CAP;
	}

	/** {@link #UNFINISHED} and {@link #FINISHED} together: what {@link TelemetryStore#countByQueueAndState} answers. */
	public static Map<String, Map<JobState, Long>> everyState(JdbcClient jdbc) {
		return everyState(jdbc, FINISHED);
	}

	/** As {@link #everyState(JdbcClient)}, with the database's own form of {@link #FINISHED}. */
	public static Map<String, Map<JobState, Long>> everyState(JdbcClient jdbc, String finished) {
		Map<String, Map<JobState, Long>> counts = query(jdbc, UNFINISHED);
		jdbc.sql(finished).param("cap", FINISHED_CAP).query(rs -> {
			add(counts, rs);
		});
		return counts;
	}

	/** Runs one of the statements above that takes no parameter: counts by queue, then by state. */
	public static Map<String, Map<JobState, Long>> query(JdbcClient jdbc, String sql) {
		Map<String, Map<JobState, Long>> counts = new TreeMap<>();
		jdbc.sql(sql).query(rs -> {
			add(counts, rs);
		});
		return counts;
	}

	private static void add(Map<String, Map<JobState, Long>> counts, ResultSet rs) throws SQLException {
		counts.computeIfAbsent(rs.getString(1), q -> new EnumMap<>(JobState.class))
			.put(JobState.valueOf(rs.getString(2)), rs.getLong(3));
	}
}
