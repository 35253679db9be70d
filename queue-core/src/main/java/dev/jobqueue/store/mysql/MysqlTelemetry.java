package dev.jobqueue.store.mysql;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.FinishedMinute;

/**
 * The wait of each queue's oldest due job and the finished jobs per minute, read as on PostgreSQL
 * ({@code PostgresTelemetry}). InnoDB purges old row versions itself: there is no table health to read.
 */
final class MysqlTelemetry {

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

	Duration oldestReadyAge(String queue) {
		return Duration.ofNanos(jdbc.sql(OLDEST_READY).param("queue", queue).query(Long.class).single() * 1000);
	}

	List<FinishedMinute> finishedPerMinute(int minutes) {
		return jdbc.sql(FINISHED_PER_MINUTE)
			.param("minutes", minutes)
			.param("cap", FinishedMinute.CAP)
			.query((rs, row) -> new FinishedMinute(rs.getString(1),
					LocalDateTime.parse(rs.getString(2).replace(' ', 'T')).toInstant(ZoneOffset.UTC), rs.getLong(3),
					rs.getLong(4), rs.getLong(5)))
			.list();
	}
}
