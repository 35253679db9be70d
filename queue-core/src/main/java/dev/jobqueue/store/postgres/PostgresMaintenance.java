package dev.jobqueue.store.postgres;

import static dev.jobqueue.store.postgres.PostgresDialect.TRANSITIONS;

import java.time.Duration;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job.AttemptError;
import dev.jobqueue.store.JobCounts;
import dev.jobqueue.store.MaintenanceStore;
import dev.jobqueue.store.postgres.support.PostgresVacuum;

/**
 * The maintenance node's statements on PostgreSQL: the reaper, the pruner, the vacuum ({@link PostgresVacuum}) and
 * the maintenance lease ({@code jobqueue_maintenance}, V22). The lease is one row, taken and renewed by
 * compare-and-set on the database's clock, each a statement of its own in auto-commit, so that no session state
 * outlives it (PgBouncer's transaction pooling hands the connection on after it).
 */
final class PostgresMaintenance implements MaintenanceStore {

	/** The pruner's delete ({@link #prune}). */
	static final String PRUNE = """
			WITH pruned AS (
			DELETE FROM jobqueue_job WHERE id = ANY(ARRAY(
			    WITH RECURSIVE %s
			    SELECT expired.id
			    FROM queues
			    CROSS JOIN (VALUES ('succeeded', :finishedMillis), ('cancelled', :finishedMillis), ('dead', :deadMillis))
			        AS retention (state, millis)
			    CROSS JOIN LATERAL (
			        SELECT j.id FROM jobqueue_job j
			        WHERE j.state IN ('succeeded', 'cancelled', 'dead') AND j.queue = queues.queue
			          AND j.state = retention.state
			          AND j.finished_at < now() - retention.millis * interval '1 millisecond'
			          AND (j.concurrency_key IS NULL OR NOT %s)
			        ORDER BY j.finished_at
			        LIMIT :limit
			        FOR UPDATE SKIP LOCKED
			    ) AS expired
			    WHERE queues.queue IS NOT NULL
			    LIMIT :limit
			))
			RETURNING id
			), steps AS (
			    DELETE FROM jobqueue_job_step WHERE job_id IN (SELECT id FROM pruned)
			), dependencies AS (
			    DELETE FROM jobqueue_job_dependency WHERE job_id IN (SELECT id FROM pruned)
			), batches AS (
			    DELETE FROM jobqueue_batch_job WHERE job_id IN (SELECT id FROM pruned)
			)
			SELECT count(*) FROM pruned""".formatted(JobCounts.FINISHED_QUEUES, TRANSITIONS.holdsSlot("j"));

	private final JdbcClient jdbc;

	private final PostgresVacuum vacuum;

	PostgresMaintenance(JdbcClient jdbc, PostgresVacuum vacuum) {
		this.jdbc = jdbc;
		this.vacuum = vacuum;
	}

	/** Through the lease index, as the reap: a cancelled row keeps its entry while its worker's lease is on it. */
	@Override
	public int endExpiredCancels(int limit) {
		return jdbc.sql("""
				UPDATE jobqueue_job SET lease_owner = NULL, lease_expires_at = NULL
				WHERE id IN (SELECT id FROM jobqueue_job
				             WHERE %s AND lease_expires_at < now()
				             ORDER BY lease_expires_at LIMIT :limit FOR UPDATE SKIP LOCKED)
				  AND %s AND lease_expires_at < now()""".formatted(TRANSITIONS.cancelledWithLease(""),
				TRANSITIONS.cancelledWithLease("")))
			.param("limit", limit)
			.update();
	}

	@Override
	public int reapExpired(int limit) {
		// SKIP LOCKED keeps reapers on several nodes out of each other's way. The lock also orders the
		// reaper against a completion of the same row: whichever commits first wins, and the loser's
		// re-checked WHERE (state = 'running', lease still expired) matches nothing. A reaped attempt stays
		// counted once its worker confirmed the claim (a heartbeat, the first as soon as the claim's answer
		// arrived), so a job that kills its worker every time still ends dead; an unconfirmed claim may never
		// have reached a worker, so its attempt is given back, up to MAX_UNCONFIRMED_REAPS times per job.
		// The expiry goes on the error history like any failure, naming the owner whose lease it was; the
		// rows are locked by the time the message is made, so it describes the row the update changes.
		return jdbc.sql("""
				WITH expired AS (
				    SELECT id, %s AS give_back,
				           'lease expired on ' || lease_owner || ' at ' || lease_expires_at
				           || CASE WHEN claim_confirmed THEN ' (worker stopped or lost the database)'
				                   ELSE ' before its worker confirmed the claim' END AS message
				    FROM jobqueue_job
				    WHERE state = 'running' AND lease_expires_at < now()
				    ORDER BY lease_expires_at
				    LIMIT :limit
				    FOR UPDATE SKIP LOCKED
				)
				UPDATE jobqueue_job j
				SET state = %s,
				    finished_at = CASE WHEN %s THEN now() END,
				    attempt = j.attempt - CASE WHEN expired.give_back THEN 1 ELSE 0 END,
				    unconfirmed_reaps = j.unconfirmed_reaps + CASE WHEN expired.give_back THEN 1 ELSE 0 END,
				    last_error = expired.message,
				    errors = %s,
				    lease_owner = NULL, lease_expires_at = NULL
				FROM expired
				WHERE j.id = expired.id AND j.state = 'running' AND j.lease_expires_at < now()""".formatted(
				TRANSITIONS.reapGivesBack(""), TRANSITIONS.reapState("j", "expired.give_back"),
				TRANSITIONS.reapKills("j", "expired.give_back"),
				PostgresOutcomes.appendError("j", "now()", "expired.message")))
			.param("limit", limit)
			.param("maxUnconfirmedReaps", MaintenanceStore.MAX_UNCONFIRMED_REAPS)
			.param("maxEntries", AttemptError.MAX_ENTRIES)
			.update();
	}

	/**
	 * Through the index of finished rows by {@code (queue, state, finished_at)}: the queues by a loose scan (one
	 * descent per queue, not a read of its entries), and in each queue each finished state's rows past that state's
	 * retention, oldest first, so a batch reads no more entries than it deletes, in the order of the queues rather
	 * than of finished times across all of them. SKIP LOCKED and the small batch keep it from ever holding up a
	 * claim, and the delete looks its batch up by id: a join with the batch was planned as a hash join over a scan
	 * of the whole table. A dead job that holds its key's slot stays past its retention: deleting it would let the
	 * key's next job run.
	 */
	@Override
	public int prune(Duration finishedRetention, Duration deadRetention, int limit) {
		return jdbc.sql(PRUNE)
			.param("finishedMillis", finishedRetention.toMillis())
			.param("deadMillis", deadRetention.toMillis())
			.param("limit", limit)
			.query(Integer.class)
			.single();
	}

	@Override
	public boolean vacuumIfBloated(long deadRowThreshold) {
		return vacuum.vacuumIfBloated(deadRowThreshold);
	}

	@Override
	public boolean holdMaintenance(String owner, Duration lease) {
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

	@Override
	public void releaseMaintenance(String owner) {
		jdbc.sql("DELETE FROM jobqueue_maintenance WHERE holder = :owner").param("owner", owner).update();
	}
}
