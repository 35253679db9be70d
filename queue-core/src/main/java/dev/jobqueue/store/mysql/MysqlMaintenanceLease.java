package dev.jobqueue.store.mysql;

import java.time.Duration;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The maintenance lease's statements on MySQL ({@code jobqueue_maintenance}), as on PostgreSQL: one row, taken and
 * renewed by compare-and-set on the database's clock.
 */
final class MysqlMaintenanceLease {

	private final JdbcClient jdbc;

	MysqlMaintenanceLease(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Taken when there is no row or it expired, renewed when it is the owner's (PostgresMaintenanceLease.hold says
	 * more). The upsert locks the one row, so racing owners take turns; its IFs keep another holder's unexpired
	 * lease as it is, the holder first, since assignments run left to right and expires_at must still be the
	 * old one when the holder is decided. Whether {@code owner} holds it is read back right after:
	 * the drivers count a found row as changed, so the upsert's count cannot tell.
	 */
	boolean hold(String owner, Duration lease) {
		return jdbc.sql("""
				INSERT INTO jobqueue_maintenance (single, holder, expires_at)
				VALUES (1, :owner, UTC_TIMESTAMP(6) + INTERVAL :leaseMicros MICROSECOND)
				ON DUPLICATE KEY UPDATE
				    holder = IF(holder = VALUES(holder) OR expires_at < UTC_TIMESTAMP(6), VALUES(holder), holder),
				    expires_at = IF(holder = VALUES(holder), VALUES(expires_at), expires_at)""")
			.param("owner", owner)
			.param("leaseMicros", MysqlRows.micros(lease))
			.update() > 0 && holds(owner);
	}

	private boolean holds(String owner) {
		return jdbc.sql("SELECT count(*) FROM jobqueue_maintenance WHERE holder = :owner")
			.param("owner", owner)
			.query(Integer.class)
			.single() > 0;
	}

	void release(String owner) {
		jdbc.sql("DELETE FROM jobqueue_maintenance WHERE holder = :owner").param("owner", owner).update();
	}
}
