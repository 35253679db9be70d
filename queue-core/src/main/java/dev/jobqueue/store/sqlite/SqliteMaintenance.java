package dev.jobqueue.store.sqlite;

import static dev.jobqueue.store.sqlite.SqliteDialect.TRANSITIONS;

import java.time.Duration;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job.AttemptError;
import dev.jobqueue.store.MaintenanceStore;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/**
 * The maintenance node's statements on SQLite: the reaper, the pruner, and the maintenance lease
 * ({@code jobqueue_maintenance}, V22), as on PostgreSQL: one row, taken and renewed by compare-and-set on the
 * database's clock. Each is one write under the write lock, so the processes sharing the file take turns and the
 * second reads what the first wrote.
 */
final class SqliteMaintenance implements MaintenanceStore {

	/** The reaper's statement (see {@link #reapExpired}), a constant so that a test can ask for its plan. */
	static final String REAP = """
			UPDATE jobqueue_job
			SET state = %1$s,
			    finished_at = CASE WHEN %2$s THEN CAST(round(unixepoch('subsec') * 1000) AS INTEGER) END,
			    attempt = attempt - expired.give_back,
			    unconfirmed_reaps = unconfirmed_reaps + expired.give_back,
			    last_error = expired.message, errors = %3$s,
			    lease_owner = NULL, lease_expires_at = NULL
			FROM (
			    SELECT id AS expired_id, %4$s AS give_back,
			           'lease expired on ' || lease_owner || ' at '
			           || strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', lease_expires_at / 1000.0, 'unixepoch')
			           || CASE WHEN claim_confirmed THEN ' (worker stopped or lost the database)'
			                   ELSE ' before its worker confirmed the claim' END AS message
			    FROM jobqueue_job
			    WHERE state = 'running' AND lease_expires_at < CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
			    ORDER BY lease_expires_at
			    LIMIT :limit) AS expired
			WHERE jobqueue_job.id = expired.expired_id""".formatted(TRANSITIONS.reapState("", "expired.give_back"),
			TRANSITIONS.reapKills("", "expired.give_back"), SqliteOutcomes.appendError("expired.message"),
			TRANSITIONS.reapGivesBack(""));

	/**
	 * The pruner's statement (see {@link #prune}), a constant so that a test can ask for its plan. The queues with
	 * finished jobs by the loose scan of the index of finished rows ({@link SqliteTelemetry#FINISHED_QUEUES}),
	 * crossed with the finished states and each one's retention: each queue and state a range of the index, up to
	 * its cutoff. So rows go oldest first within a queue and state, not across them, which the pruner does not need:
	 * it deletes every row past its retention, batch after batch. A dead job that holds its key's slot stays past
	 * its retention, as on PostgreSQL.
	 */
	static final String PRUNE = """
			DELETE FROM jobqueue_job WHERE id IN (
			    WITH RECURSIVE %s, retained (state, millis) AS (
			        VALUES ('succeeded', :finishedMillis), ('cancelled', :finishedMillis), ('dead', :deadMillis)
			    )
			    SELECT j.id
			    FROM queues CROSS JOIN retained CROSS JOIN jobqueue_job AS j INDEXED BY jobqueue_job_queue_finished_idx
			    WHERE queues.queue IS NOT NULL
			      AND j.state IN ('succeeded', 'cancelled', 'dead')
			      AND j.queue = queues.queue AND j.state = retained.state
			      AND j.finished_at <= CAST(round(unixepoch('subsec') * 1000) AS INTEGER) - retained.millis
			      AND (j.concurrency_key IS NULL OR NOT %s)
			    LIMIT :limit)""".formatted(SqliteTelemetry.FINISHED_QUEUES, TRANSITIONS.holdsSlot("j"));

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteMaintenance(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	@Override
	public int reapExpired(int limit) {
		// One statement under the write lock, so a completion of the same row is ordered before or after it:
		// whichever commits first wins, and the other's WHERE (state = 'running', lease still expired, or
		// the lease token) matches nothing. A reaped attempt stays counted once its worker confirmed the
		// claim, and is given back otherwise, as on PostgreSQL (PostgresMaintenance.reapExpired says why).
		// Reapers in several processes simply take turns.
		// The expiry goes on the error history like any failure, naming the owner whose lease it was.
		return statements.write("reap", () -> jdbc.sql(REAP)
			.param("limit", limit)
			.param("maxUnconfirmedReaps", MaintenanceStore.MAX_UNCONFIRMED_REAPS)
			.param("maxEntries", AttemptError.MAX_ENTRIES)
			.update());
	}

	/** Through the lease index, as the reap: a cancelled row keeps its entry while its worker's lease is on it. */
	@Override
	public int endExpiredCancels(int limit) {
		return statements.write("end expired cancels", () -> jdbc.sql("""
				UPDATE jobqueue_job SET lease_owner = NULL, lease_expires_at = NULL
				WHERE id IN (SELECT id FROM jobqueue_job
				             WHERE %s AND lease_expires_at < CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
				             ORDER BY lease_expires_at LIMIT :limit)""".formatted(TRANSITIONS.cancelledWithLease("")))
			.param("limit", limit)
			.update());
	}

	@Override
	public int prune(Duration finishedRetention, Duration deadRetention, int limit) {
		// "<=" rather than PostgreSQL's "<": times here are whole milliseconds, and a job finished in the
		// current millisecond is past a retention of zero. The state condition is the partial index's own, which
		// SQLite needs to see as is to use the index; each queue and state's cutoff then bounds its range.
		return statements.write("prune", () -> jdbc.sql(PRUNE)
			.param("finishedMillis", finishedRetention.toMillis())
			.param("deadMillis", deadRetention.toMillis())
			.param("limit", limit)
			.update());
	}

	/**
	 * Nothing to do: SQLite keeps no dead versions of rows. An update rewrites the row in place, a delete
	 * frees its space at once, and the pages it frees go to the file's freelist, from which the next
	 * inserts take theirs. Its VACUUM only shrinks the file, by rewriting all of it under the write lock,
	 * which would stop every claim while it runs and leave the claims no faster after.
	 */
	@Override
	public boolean vacuumIfBloated(long deadRowThreshold) {
		return false;
	}

	@Override
	public boolean holdMaintenance(String owner, Duration lease) {
		// Taken when there is no row or it expired, renewed when it is the owner's; changes nothing otherwise
		// (PostgresMaintenance.holdMaintenance says more).
		return statements.write("hold maintenance", () -> jdbc.sql("""
				INSERT INTO jobqueue_maintenance (single, holder, expires_at)
				VALUES (1, :owner, CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :leaseMillis)
				ON CONFLICT (single) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
				WHERE holder = excluded.holder OR expires_at < CAST(round(unixepoch('subsec') * 1000) AS INTEGER)""")
			.param("owner", owner)
			.param("leaseMillis", lease.toMillis())
			.update()) == 1;
	}

	@Override
	public void releaseMaintenance(String owner) {
		statements.write("release maintenance", () -> jdbc.sql("DELETE FROM jobqueue_maintenance WHERE holder = :owner")
			.param("owner", owner)
			.update());
	}
}
