package dev.jobqueue.store.mysql;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.Lease;

/**
 * The MySQL statements that let a handler or an operator steer a job off its usual path: a snooze, a cancel (of
 * a running job too), and the look-up that tells a worker its job was cancelled. Each touches one row by its
 * primary key.
 */
final class MysqlHandlerControl {

	private final JdbcClient jdbc;

	MysqlHandlerControl(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** Fenced like every outcome; the attempt is given back, so that it does not count. */
	boolean snooze(Lease lease, Duration delay) {
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET state = CASE WHEN concurrency_rate_millis IS NULL THEN 'ready' ELSE 'blocked' END,
				    run_at = UTC_TIMESTAMP(6) + INTERVAL :delayMicros MICROSECOND, attempt = attempt - 1,
				    snoozes = snoozes + 1, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""")
			.param("delayMicros", MysqlRows.micros(delay))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	/**
	 * The lease token stays, so that the worker of a running job finds its cancel by it ({@link #cancelled}); the
	 * state change alone fences off that worker's outcome, which every write checks.
	 */
	boolean cancel(long id) {
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET state = 'cancelled', finished_at = UTC_TIMESTAMP(6), lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id
				  AND (state IN ('blocked', 'ready', 'running') OR (state = 'dead' AND concurrency_dead_holds))""")
			.param("id", id)
			.update() == 1;
	}

	/** Read only when a heartbeat or an outcome found leases lost: rare, and a few rows by primary key. */
	Set<Lease> cancelled(Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		Set<Lease> cancelled = new HashSet<>(jdbc.sql("""
				SELECT id, lease_token FROM jobqueue_job WHERE id IN (:ids) AND state = 'cancelled'""")
			.param("ids", leases.stream().map(Lease::jobId).toList())
			.query(MysqlRows::lease)
			.list());
		cancelled.retainAll(Set.copyOf(leases));
		return cancelled;
	}
}
