package dev.jobqueue.store.postgres;

import java.time.Duration;
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
 * The reads behind the counts by queue and state ({@link JobCounts}), and the queue-health meters and thresholds: the wait of each queue's oldest due job, from the
 * ready index; the job table's dead rows, its last vacuum and what holds the xmin horizon back, from the
 * statistics views, which are shared memory, not the table.
 */
final class PostgresTelemetry implements TelemetryStore {

	/**
	 * The claim's own walk of the ready index (one probe per priority, 0 - 9 by the column's CHECK, the first
	 * entry of each in run_at order), without its filters on kinds and pauses: the wait of a paused queue, or
	 * of a kind no node serves, is what this is there to show. Zero when no ready job of the queue is due.
	 */
	static final String OLDEST_READY = """
			WITH priorities (priority) AS (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9))
			SELECT CAST(EXTRACT(EPOCH FROM greatest(now() - min(oldest.run_at), interval '0')) * 1000 AS bigint)
			FROM priorities CROSS JOIN LATERAL (
			    SELECT run_at FROM jobqueue_job
			    WHERE state = 'ready' AND queue = :queue AND priority = priorities.priority
			    ORDER BY run_at
			    LIMIT 1
			) AS oldest""";

	/** The job {@link #OLDEST_READY} measures, by the same probes: the earliest due of each priority's first. */
	static final String OLDEST_READY_JOB = """
			WITH priorities (priority) AS (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9))
			SELECT oldest.id
			FROM priorities CROSS JOIN LATERAL (
			    SELECT id, run_at FROM jobqueue_job
			    WHERE state = 'ready' AND queue = :queue AND priority = priorities.priority
			    ORDER BY run_at
			    LIMIT 1
			) AS oldest
			ORDER BY oldest.run_at, oldest.id
			LIMIT 1""";

	/**
	 * A transaction holds the horizon back with its snapshot (backend_xmin, any REPEATABLE READ transaction
	 * once it read, or a long statement) or with its own transaction id (one that wrote, idle since). Only
	 * this database's transactions hold back the horizon of its tables, plus the backends of no database
	 * (walsenders with hot_standby_feedback), the physical replication slots and this database's logical
	 * ones. Autovacuum workers are left out: a vacuum's own snapshot holds nothing back. Other roles'
	 * transactions show only to a role with pg_read_all_stats (or pg_monitor).
	 */
	static final String TABLE_HEALTH = """
			SELECT s.n_dead_tup,
			       CAST(EXTRACT(EPOCH FROM now() - greatest(s.last_vacuum, s.last_autovacuum)) * 1000 AS bigint),
			       (SELECT CAST(coalesce(EXTRACT(EPOCH FROM now() - min(h.since)) * 1000, 0) AS bigint)
			        FROM (SELECT a.xact_start AS since FROM pg_stat_activity a
			              WHERE (a.backend_xmin IS NOT NULL OR a.backend_xid IS NOT NULL)
			                AND a.pid <> pg_backend_pid() AND a.datname = current_database()
			                AND a.backend_type <> 'autovacuum worker'
			              UNION ALL
			              SELECT p.prepared FROM pg_prepared_xacts p WHERE p.database = current_database()) h),
			       (SELECT coalesce(max(x.age), 0)
			        FROM (SELECT greatest(age(a.backend_xmin), age(a.backend_xid)) AS age FROM pg_stat_activity a
			              WHERE a.pid <> pg_backend_pid() AND (a.datname = current_database() OR a.datname IS NULL)
			                AND a.backend_type <> 'autovacuum worker'
			              UNION ALL
			              SELECT age(p.transaction) FROM pg_prepared_xacts p WHERE p.database = current_database()
			              UNION ALL
			              SELECT age(r.xmin) FROM pg_replication_slots r
			              WHERE r.database IS NULL OR r.database = current_database()) x)
			FROM pg_stat_user_tables s
			WHERE s.relid = CAST('jobqueue_job' AS regclass)""";

	/**
	 * The index of finished rows by {@code (queue, state, finished_at)}: the queues by a loose scan, and each queue's
	 * finished states walked backwards from now, newest first, down to the first of the minutes asked for, at most
	 * {@link FinishedMinute#CAP} entries each, from the index only: bounded at any rate of work. The state list is
	 * the index's own predicate, so the planner may use it.
	 */
	static final String FINISHED_PER_MINUTE = """
			WITH RECURSIVE %s
			SELECT queues.queue, date_trunc('minute', recent.finished_at) AS minute,
			       count(*) FILTER (WHERE finished.state = 'succeeded'), count(*) FILTER (WHERE finished.state = 'cancelled'),
			       count(*) FILTER (WHERE finished.state = 'dead')
			FROM queues
			CROSS JOIN (VALUES ('succeeded'), ('cancelled'), ('dead')) AS finished (state)
			CROSS JOIN LATERAL (
			    SELECT j.finished_at FROM jobqueue_job j
			    WHERE j.state IN ('succeeded', 'cancelled', 'dead') AND j.queue = queues.queue AND j.state = finished.state
			      AND j.finished_at >= date_trunc('minute', now()) - make_interval(mins => :minutes - 1)
			    ORDER BY j.finished_at DESC
			    LIMIT :cap
			) AS recent
			WHERE queues.queue IS NOT NULL
			GROUP BY queues.queue, minute
			ORDER BY queues.queue, minute""".formatted(JobCounts.FINISHED_QUEUES);

	private final JdbcClient jdbc;

	PostgresTelemetry(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public Duration oldestReadyAge(String queue) {
		return Duration.ofMillis(jdbc.sql(OLDEST_READY).param("queue", queue).query(Long.class).single());
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
			.query((rs, row) -> new FinishedMinute(rs.getString(1), rs.getTimestamp(2).toInstant(), rs.getLong(3),
					rs.getLong(4), rs.getLong(5)))
			.list();
	}

	@Override
	public Optional<TableHealth> tableHealth() {
		return Optional.of(jdbc.sql(TABLE_HEALTH).query((rs, row) -> {
			long sinceVacuum = rs.getLong(2);
			Optional<Duration> vacuumed = rs.wasNull() ? Optional.empty() : Optional.of(Duration.ofMillis(sinceVacuum));
			return new TableHealth(rs.getLong(1), vacuumed, Duration.ofMillis(rs.getLong(3)), rs.getLong(4));
		}).single());
	}

	@Override
	public Map<String, Map<JobState, Long>> countByQueueAndState() {
		return JobCounts.everyState(jdbc);
	}

	@Override
	public Map<String, Map<JobState, Long>> countUnfinishedByQueue() {
		return JobCounts.query(jdbc, JobCounts.UNFINISHED);
	}
}
