package dev.jobqueue.store.postgres;

import java.time.Duration;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The maintenance lease's statements on PostgreSQL ({@code jobqueue_maintenance}, V22): one row, taken and
 * renewed by compare-and-set on the database's clock, each a statement of its own in auto-commit, so that no
 * session state outlives it (PgBouncer's transaction pooling hands the connection on after it).
 */
final class PostgresMaintenanceLease {

	private final JdbcClient jdbc;

	PostgresMaintenanceLease(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	boolean hold(String owner, Duration lease) {
		// The insert takes the row when there is none (first start, or a holder that released it). Otherwise
		// DO UPDATE locks the row and checks its WHERE on the version it locked, so of two nodes taking an
		// expired lease at once one updates and the other, once the first committed, sees it held and changes
		// nothing. The holder renews by the same statement; a holder whose lease expired and was taken finds
		// the row someone else's and stops maintaining.
		return jdbc.sql("""
				INSERT INTO jobqueue_maintenance AS m (single, holder, expires_at)
				VALUES (true, :owner, now() + :leaseMillis * interval '1 millisecond')
				ON CONFLICT (single) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
				WHERE m.holder = excluded.holder OR m.expires_at < now()""")
			.param("owner", owner)
			.param("leaseMillis", lease.toMillis())
			.update() == 1;
	}

	void release(String owner) {
		jdbc.sql("DELETE FROM jobqueue_maintenance WHERE holder = :owner").param("owner", owner).update();
	}
}
