package dev.jobqueue.store.mysql;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobState;
import dev.jobqueue.store.FinishedMinute;
import dev.jobqueue.store.JobCounts;
import dev.jobqueue.store.TableHealth;
import dev.jobqueue.store.TelemetryStore;

/**
 * The counts by queue and state, the wait of each queue's oldest due job and the finished jobs per minute, read as on PostgreSQL
 * ({@code PostgresTelemetry}). InnoDB purges old row versions itself: there is no table health to read.
 */
final class MysqlTelemetry implements TelemetryStore {

	/**
	 * One probe of the claim index per priority (0 - 9 by the column's check), the first entry of each in run_at
	 * order, without the claim's filters on kinds and pauses: the wait of a paused queue, or of a kind no node serves,
	 * is what this shows. Zero when no ready job of the queue is due.
	 */
	static final String OLDEST_READY = """
			SELECT GREATEST(0, COALESCE(TIMESTAMPDIFF(MICROSECOND, min(oldest.run_at), UTC_TIMESTAMP(6)), 0))
			FROM (SELECT (SELECT run_at FROM jobqueue_job FORCE INDEX (jobqueue_job_ready_idx)
			              WHERE queue = :queue AND state = 'ready' AND priority = priorities.priority
			              ORDER BY run_at
			              LIMIT 1) AS run_at
			      FROM (SELECT 0 AS priority UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
			            UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)
			           AS priorities) AS oldest""";

	/** The job {@link #OLDEST_READY} measures, by the same probes: the earliest due of each priority's first. */
	static final String OLDEST_READY_JOB = """
			SELECT j.id
			FROM (SELECT (SELECT id FROM jobqueue_job FORCE INDEX (jobqueue_job_ready_idx)
			              WHERE queue = :queue AND state = 'ready' AND priority = priorities.priority
			              ORDER BY run_at
			              LIMIT 1) AS id
			      FROM (SELECT 0 AS priority UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
			            UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)
			           AS priorities) AS oldest
			JOIN jobqueue_job j ON j.id = oldest.id
			ORDER BY j.run_at, j.id
			LIMIT 1""";

	/** The finished index walked backwards from now down to the first of the minutes asked for, at most the cap. */
	static final String FINISHED_PER_MINUTE = """
			SELECT queue, DATE_FORMAT(finished_at, '%Y-%m-%d %H:%i:00') AS minute,
			       sum(state = 'succeeded'), sum(state = 'cancelled'), sum(state = 'dead')
			FROM (SELECT queue, state, finished_at FROM jobqueue_job
			      WHERE finished_at >= DATE_FORMAT(UTC_TIMESTAMP(6), '%Y-%m-%d %H:%i:00') - INTERVAL :minutes - 1 MINUTE
			        AND state IN ('succeeded', 'cancelled', 'dead')
			      ORDER BY finished_at DESC
			      LIMIT :cap) AS recent
			GROUP BY queue, minute
			ORDER BY queue, minute""";

	private final JdbcClient jdbc;

	MysqlTelemetry(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public Duration oldestReadyAge(String queue) {
		return Duration.ofNanos(jdbc.sql(OLDEST_READY).param("queue", queue).query(Long.class).single() * 1000);
	}

	@Override
	public Optional<Long> oldestReadyJob(String queue) {
		return jdbc.sql(OLDEST_READY_JOB).param("queue", queue).query(Long.class).optional();
	}

	@Override
	public List<FinishedMinute> finishedPerMinute(int minutes) {
		return jdbc.sql(FINISHED_PER_MINUTE)
			.param("minutes", FinishedMinute.checkMinutes(minutes))
			.param("cap", FinishedMinute.CAP)
			.query((rs, row) -> new FinishedMinute(rs.getString(1),
					LocalDateTime.parse(rs.getString(2).replace(' ', 'T')).toInstant(ZoneOffset.UTC), rs.getLong(3),
					rs.getLong(4), rs.getLong(5)))
			.list();
	}

	@Override
	public Map<String, Map<JobState, Long>> countUnfinishedByQueue() {
		return JobCounts.query(jdbc, JobCounts.UNFINISHED);
	}

	/**
	 * The counts on MySQL: {@link JobCounts#UNFINISHED} as on the other databases, through the
	 * (state, queue, id) index; the finished states in two steps, as MySQL's recursive CTEs may not name themselves
	 * in a subquery, which the shared loose scan does. The queues that have finished jobs of a state come from a
	 * loose scan of that index (MySQL's "index for group-by", one descent per queue), then each (queue, state) is
	 * counted up to {@link JobCounts#FINISHED_CAP} entries of it.
	 */
	@Override
	public Map<String, Map<JobState, Long>> countByQueueAndState() {
		Map<String, Map<JobState, Long>> counts = countUnfinishedByQueue();
		List<QueueState> finished = jdbc.sql("""
				SELECT state, queue FROM jobqueue_job WHERE state IN ('succeeded', 'cancelled', 'dead')
				GROUP BY state, queue""")
			.query((rs, row) -> new QueueState(rs.getString("queue"), JobState.valueOf(rs.getString("state"))))
			.list();
		for (QueueState each : finished) {
			long n = jdbc.sql("""
					SELECT count(*) FROM (SELECT 1 FROM jobqueue_job WHERE state = :state AND queue = :queue LIMIT :cap) capped""")
				.param("state", each.state().name())
				.param("queue", each.queue())
				.param("cap", JobCounts.FINISHED_CAP)
				.query(Long.class)
				.single();
			counts.computeIfAbsent(each.queue(), q -> new EnumMap<>(JobState.class)).put(each.state(), n);
		}
		return counts;
	}

	/** InnoDB purges old row versions itself; there is no dead-row count or vacuum to report. */
	@Override
	public Optional<TableHealth> tableHealth() {
		return Optional.empty();
	}

	private record QueueState(String queue, JobState state) {
	}
}
