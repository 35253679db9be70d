package dev.jobqueue.store.mysql;

import static dev.jobqueue.store.mysql.MysqlDialect.TRANSITIONS;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job.AttemptError;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.MaintenanceStore;
import dev.jobqueue.store.mysql.support.MysqlTransactions;
import dev.jobqueue.store.mysql.support.MysqlValues;

/**
 * The maintenance node's statements on MySQL: the reaper, the pruner, and the maintenance lease
 * ({@code jobqueue_maintenance}), as on PostgreSQL: one row, taken and renewed by compare-and-set on the database's
 * clock.
 */
final class MysqlMaintenance implements MaintenanceStore {

	/**
	 * The reaper's read of expired leases (see {@link #reapExpired}): the running rows, a range of the state index as
	 * large as the number of running jobs, sorted by expiry. No index on the expiry (V28): every claim, finish and
	 * heartbeat would rewrite its entry, for this read alone.
	 */
	static final String EXPIRED = """
			SELECT id, lease_token FROM jobqueue_job FORCE INDEX (jobqueue_job_state_idx)
			WHERE state = 'running' AND lease_expires_at < UTC_TIMESTAMP(6)
			ORDER BY lease_expires_at
			LIMIT :limit""";

	/**
	 * One expired lease taken back, fenced by its token and still expired. Assignments run left to right on
	 * MySQL: last_error is the message first, the history's entry reads it, the state reads the attempt before it
	 * is given back, and finished_at reads the new state. An attempt is given back when the claim was never
	 * confirmed, at most {@code MaintenanceStore.MAX_UNCONFIRMED_REAPS} times per job.
	 */
	static final String REAP = """
			UPDATE jobqueue_job FORCE INDEX (PRIMARY)
			SET last_error = CONCAT('lease expired on ', lease_owner, ' at ',
			                        DATE_FORMAT(lease_expires_at, '%%Y-%%m-%%dT%%H:%%i:%%s.%%fZ'),
			                        IF(claim_confirmed, ' (worker stopped or lost the database)',
			                           ' before its worker confirmed the claim')),
			    errors = %1$s,
			    state = %2$s,
			    finished_at = CASE WHEN state = 'dead' THEN UTC_TIMESTAMP(6) END,
			    attempt = attempt - IF(%3$s, 1, 0),
			    unconfirmed_reaps = unconfirmed_reaps + IF(%3$s, 1, 0),
			    lease_owner = NULL, lease_expires_at = NULL
			WHERE id = :id AND lease_token = :token AND state = 'running' AND lease_expires_at < UTC_TIMESTAMP(6)""".formatted(
			MysqlOutcomes.appendError("last_error"), TRANSITIONS.reapState("", TRANSITIONS.reapGivesBack("")),
			TRANSITIONS.reapGivesBack(""));

	/**
	 * The jobs a prune deletes, locked, oldest first through the index of finished times, which holds no entry with
	 * a value for an unfinished row: the shorter retention bounds the range, so a batch reads no more rows than it
	 * deletes. "<=", as on SQLite: a job finished within the current microsecond is past a retention of zero. A
	 * dead job that holds its key's slot stays past its retention, as on PostgreSQL.
	 */
	static final String PRUNABLE = """
			SELECT id FROM jobqueue_job
			WHERE finished_at <= UTC_TIMESTAMP(6) - INTERVAL LEAST(:finishedMicros, :deadMicros) MICROSECOND
			  AND finished_at <= UTC_TIMESTAMP(6)
			                     - INTERVAL CASE WHEN state = 'dead' THEN :deadMicros ELSE :finishedMicros END MICROSECOND
			  AND state IN ('succeeded', 'cancelled', 'dead')
			  AND (concurrency_key IS NULL OR NOT %s)
			ORDER BY finished_at
			LIMIT :limit
			FOR UPDATE""".formatted(TRANSITIONS.holdsSlot(""));

	private final JdbcClient jdbc;

	private final NamedParameterJdbcTemplate named;

	private final MysqlTransactions transactions;

	MysqlMaintenance(JdbcClient jdbc, NamedParameterJdbcTemplate named, MysqlTransactions transactions) {
		this.jdbc = jdbc;
		this.named = named;
		this.transactions = transactions;
	}

	/**
	 * A plain read of the expired leases, then in one transaction a locking read of those still running and expired,
	 * in id order like the batched completion's, so the two queue up rather than deadlock, and one fenced update per
	 * locked lease in a batch. The same on servers with and without SKIP LOCKED: a completion that commits first
	 * wins, and the locking read then no longer finds its row; reapers on several nodes at once take the same
	 * turns. The locked rows are the reaped ones: the batch's counts are not read (see MysqlOutcomes.completeAll).
	 */
	/**
	 * A range of the state index over the cancelled rows, as {@link #EXPIRED} reads the running ones: there is no
	 * index on the expiry (V28). Fenced by the expiry itself, for the only writer that races with it is the worker's
	 * own end, which writes the same.
	 */
	@Override
	public int endExpiredCancels(int limit) {
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (jobqueue_job_state_idx)
				SET lease_owner = NULL, lease_expires_at = NULL
				WHERE %s AND lease_expires_at < UTC_TIMESTAMP(6)
				LIMIT :limit""".formatted(TRANSITIONS.cancelledWithLease("")))
			.param("limit", limit)
			.update();
	}

	@Override
	public int reapExpired(int limit) {
		List<Lease> expired = jdbc.sql(EXPIRED).param("limit", limit).query(MysqlRows::lease).list();
		if (expired.isEmpty()) {
			return 0;
		}
		return transactions.run(() -> {
			List<Lease> locked = jdbc.sql("""
					SELECT id, lease_token FROM jobqueue_job FORCE INDEX (PRIMARY)
					WHERE id IN (:ids) AND state = 'running' AND lease_expires_at < UTC_TIMESTAMP(6)
					ORDER BY id
					FOR UPDATE""")
				.param("ids", expired.stream().map(Lease::jobId).toList())
				.query(MysqlRows::lease)
				.list()
				.stream()
				.filter(Set.copyOf(expired)::contains)
				.toList();
			if (!locked.isEmpty()) {
				named.batchUpdate(REAP, locked.stream()
					.map(lease -> new MapSqlParameterSource().addValue("maxEntries", AttemptError.MAX_ENTRIES)
						.addValue("maxUnconfirmedReaps", MaintenanceStore.MAX_UNCONFIRMED_REAPS)
						.addValue("id", lease.jobId())
						.addValue("token", lease.token()))
					.toArray(SqlParameterSource[]::new));
			}
			return locked.size();
		});
	}

	/**
	 * At READ COMMITTED: at REPEATABLE READ the range's gap locks would hold up inserts, whose NULL finished time
	 * sorts into the gap before the oldest finished row.
	 */
	@Override
	public int prune(Duration finishedRetention, Duration deadRetention, int limit) {
		// The jobs are picked first, and deleted with their steps: MySQL deletes from two tables by ids only.
		return transactions.run(() -> {
			List<Long> ids = jdbc.sql(PRUNABLE)
				.param("finishedMicros", MysqlValues.micros(finishedRetention))
				.param("deadMicros", MysqlValues.micros(deadRetention))
				.param("limit", limit)
				.query(Long.class)
				.list();
			if (ids.isEmpty()) {
				return 0;
			}
			jdbc.sql("DELETE FROM jobqueue_job_step WHERE job_id IN (:ids)").param("ids", ids).update();
			jdbc.sql("DELETE FROM jobqueue_job_dependency WHERE job_id IN (:ids)").param("ids", ids).update();
			jdbc.sql("DELETE FROM jobqueue_batch_job WHERE job_id IN (:ids)").param("ids", ids).update();
			return jdbc.sql("DELETE FROM jobqueue_job WHERE id IN (:ids)").param("ids", ids).update();
		});
	}

	/**
	 * Nothing to do: InnoDB's purge thread removes the old versions of rows as soon as no transaction can read
	 * them, with no command of ours.
	 */
	@Override
	public boolean vacuumIfBloated(long deadRowThreshold) {
		return false;
	}

	/**
	 * Taken when there is no row or it expired, renewed when it is the owner's (PostgresMaintenance.holdMaintenance says
	 * more). The upsert locks the one row, so racing owners take turns; its IFs keep another holder's unexpired
	 * lease as it is, the holder first, since assignments run left to right and expires_at must still be the
	 * old one when the holder is decided. Whether {@code owner} holds it is read back right after:
	 * the drivers count a found row as changed, so the upsert's count cannot tell.
	 */
	@Override
	public boolean holdMaintenance(String owner, Duration lease) {
		return jdbc.sql("""
				INSERT INTO jobqueue_maintenance (single, holder, expires_at)
				VALUES (1, :owner, UTC_TIMESTAMP(6) + INTERVAL :leaseMicros MICROSECOND)
				ON DUPLICATE KEY UPDATE
				    holder = IF(holder = VALUES(holder) OR expires_at < UTC_TIMESTAMP(6), VALUES(holder), holder),
				    expires_at = IF(holder = VALUES(holder), VALUES(expires_at), expires_at)""")
			.param("owner", owner)
			.param("leaseMicros", MysqlValues.micros(lease))
			.update() > 0 && holds(owner);
	}

	private boolean holds(String owner) {
		return jdbc.sql("SELECT count(*) FROM jobqueue_maintenance WHERE holder = :owner")
			.param("owner", owner)
			.query(Integer.class)
			.single() > 0;
	}

	@Override
	public void releaseMaintenance(String owner) {
		jdbc.sql("DELETE FROM jobqueue_maintenance WHERE holder = :owner").param("owner", owner).update();
	}
}
