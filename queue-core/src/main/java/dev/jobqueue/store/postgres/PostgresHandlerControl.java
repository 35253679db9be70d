package dev.jobqueue.store.postgres;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.Lease;

/**
 * The PostgreSQL statements that let a handler or an operator steer a job off its usual path: a snooze, a
 * cancel (of a running job too), and the look-up that tells a worker its job was cancelled.
 */
final class PostgresHandlerControl {

	private final JdbcClient jdbc;

	private final boolean notify;

	PostgresHandlerControl(JdbcClient jdbc, boolean notify) {
		this.jdbc = jdbc;
		this.notify = notify;
	}

	/** Fenced like every outcome; the attempt is given back, so that it does not count. */
	boolean snooze(Lease lease, Duration delay) {
		return jdbc.sql("""
				UPDATE jobqueue_job
				SET state = CASE WHEN concurrency_rate_millis IS NULL THEN 'ready' ELSE 'blocked' END,
				    run_at = statement_timestamp() + :delayMillis * interval '1 millisecond',
				    attempt = attempt - 1, snoozes = snoozes + 1, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""")
			.param("delayMillis", delay.toMillis())
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	/**
	 * The lease token stays, so that the worker of a running job finds its cancel by it ({@link #cancelled});
	 * the state change alone fences off that worker's outcome, which every write checks. Awaiters hear of it
	 * on jobqueue_finished, as of every job that finishes.
	 */
	boolean cancel(long id) {
		return !jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'cancelled', finished_at = statement_timestamp(), lease_owner = NULL,
				    lease_expires_at = NULL
				WHERE id = :id
				  AND (state IN ('blocked', 'ready', 'running') OR (state = 'dead' AND concurrency_dead_holds))
				RETURNING CASE WHEN :notify THEN pg_notify('jobqueue_finished', '') IS NULL END""")
			.param("id", id)
			.param("notify", notify)
			.query((rs, n) -> 1)
			.list()
			.isEmpty();
	}

	/** Read only when a heartbeat or an outcome found leases lost: rare, and a few rows by primary key. */
	Set<Lease> cancelled(Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		Set<Lease> cancelled = new HashSet<>(jdbc.sql("""
				SELECT id, lease_token FROM jobqueue_job
				WHERE id = ANY(CAST(:ids AS bigint[])) AND state = 'cancelled'""")
			.param("ids", leases.stream().map(Lease::jobId).toArray(Long[]::new))
			.query((rs, n) -> new Lease(rs.getLong(1), rs.getLong(2)))
			.list());
		cancelled.retainAll(Set.copyOf(leases));
		return cancelled;
	}
}
