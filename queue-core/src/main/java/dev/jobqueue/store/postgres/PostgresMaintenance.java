package dev.jobqueue.store.postgres;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job;
import dev.jobqueue.Job.AttemptError;
import dev.jobqueue.JobState;
import dev.jobqueue.store.JobCounts;
import dev.jobqueue.store.JobStore;

/** The PostgreSQL statements outside the hot path: look-ups, operator actions, reaper, pruner, counts. */
final class PostgresMaintenance {

	private final JdbcClient jdbc;

	private final boolean notify;

	PostgresMaintenance(JdbcClient jdbc, boolean notify) {
		this.jdbc = jdbc;
		this.notify = notify;
	}

	Optional<Job> find(long id) {
		return jdbc.sql("""
				SELECT id, queue, kind, payload::text AS payload, payload_version, state, priority, run_at, attempt,
				       max_attempts, lease_owner, lease_expires_at, unique_key, last_error, result::text AS result,
				       created_at, started_at, finished_at, errors::text AS errors, concurrency_key
				FROM jobqueue_job WHERE id = :id""")
			.param("id", id)
			.query(PostgresRows::job)
			.optional();
	}

	boolean retryDead(long id) {
		// A job with a concurrency key goes back to blocked and waits for a slot, as a new one does.
		// NOT EXISTS leaves the job dead when an unfinished job of its kind holds its key: the update would
		// break the unique index, and its error would abort the caller's transaction.
		String sql = notify ? """
				WITH retried AS (
				    UPDATE jobqueue_job j
				    SET state = CASE WHEN concurrency_key IS NULL THEN 'ready' ELSE 'blocked' END, attempt = 0, run_at = now(),
				        finished_at = NULL
				    WHERE id = :id AND state = 'dead'
				      AND NOT EXISTS (SELECT 1 FROM jobqueue_job holder
				                      WHERE holder.kind = j.kind AND holder.unique_key = j.unique_key
				                        AND holder.state IN ('blocked', 'ready', 'running'))
				    RETURNING queue
				)
				SELECT pg_notify('jobqueue_ready', queue) IS NULL FROM retried""" : """
				UPDATE jobqueue_job j
				    SET state = CASE WHEN concurrency_key IS NULL THEN 'ready' ELSE 'blocked' END, attempt = 0, run_at = now(),
				        finished_at = NULL
				WHERE id = :id AND state = 'dead'
				  AND NOT EXISTS (SELECT 1 FROM jobqueue_job holder
				                  WHERE holder.kind = j.kind AND holder.unique_key = j.unique_key
				                    AND holder.state IN ('blocked', 'ready', 'running'))
				RETURNING queue""";
		return !jdbc.sql(sql).param("id", id).query((rs, n) -> 1).list().isEmpty();
	}

	Optional<Long> holderOfUniqueKey(long id) {
		return jdbc.sql("""
				SELECT holder.id FROM jobqueue_job job
				JOIN jobqueue_job holder ON holder.kind = job.kind AND holder.unique_key = job.unique_key
				WHERE job.id = :id AND job.state = 'dead' AND holder.id <> job.id AND holder.state IN ('blocked', 'ready', 'running')""")
			.param("id", id)
			.query(Long.class)
			.optional();
	}

	int reapExpired(int limit) {
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
				    SELECT id, NOT claim_confirmed AND unconfirmed_reaps < :maxUnconfirmedReaps AS give_back,
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
				SET state = CASE WHEN NOT expired.give_back AND j.attempt >= j.max_attempts THEN 'dead'
				                 WHEN j.concurrency_rate_millis IS NULL THEN 'ready' ELSE 'blocked' END,
				    finished_at = CASE WHEN NOT expired.give_back AND j.attempt >= j.max_attempts THEN now() END,
				    attempt = j.attempt - CASE WHEN expired.give_back THEN 1 ELSE 0 END,
				    unconfirmed_reaps = j.unconfirmed_reaps + CASE WHEN expired.give_back THEN 1 ELSE 0 END,
				    last_error = expired.message,
				    errors = CASE WHEN jsonb_array_length(j.errors) >= :maxEntries THEN j.errors - 0 ELSE j.errors END
				             || jsonb_build_array(jsonb_build_object('attempt', j.attempt, 'at', now(),
				                                                     'worker', j.lease_owner, 'message', expired.message)),
				    lease_owner = NULL, lease_expires_at = NULL
				FROM expired
				WHERE j.id = expired.id AND j.state = 'running' AND j.lease_expires_at < now()""")
			.param("limit", limit)
			.param("maxUnconfirmedReaps", JobStore.MAX_UNCONFIRMED_REAPS)
			.param("maxEntries", AttemptError.MAX_ENTRIES)
			.update();
	}

	int prune(Duration finishedRetention, Duration deadRetention, int limit) {
		// Oldest first, through the partial index over finished rows, so each batch reads no more rows
		// than it deletes; SKIP LOCKED and the small batch keep it from ever holding up a claim. The
		// shorter retention bounds the index scan (the per-state cutoff alone cannot, so with nothing to
		// delete the scan walked every finished row), and the delete looks its batch up by id: a join with
		// the batch was planned as a hash join over a scan of the whole table.
		return jdbc.sql("""
				DELETE FROM jobqueue_job WHERE id = ANY(ARRAY(
				    SELECT id FROM jobqueue_job
				    WHERE state IN ('succeeded', 'cancelled', 'dead')
				      AND finished_at < now() - LEAST(:deadMillis, :finishedMillis) * interval '1 millisecond'
				      AND finished_at < now() - CASE WHEN state = 'dead' THEN :deadMillis ELSE :finishedMillis END
				                                 * interval '1 millisecond'
				    ORDER BY finished_at
				    LIMIT :limit
				    FOR UPDATE SKIP LOCKED
				))""")
			.param("finishedMillis", finishedRetention.toMillis())
			.param("deadMillis", deadRetention.toMillis())
			.param("limit", limit)
			.update();
	}

	Map<String, Map<JobState, Long>> countByQueueAndState() {
		return JobCounts.everyState(jdbc);
	}

	Map<String, Map<JobState, Long>> countUnfinishedByQueue() {
		return JobCounts.query(jdbc, JobCounts.UNFINISHED);
	}

	/** to_regclass answers null for a missing table where a SELECT from it would fail the transaction. */
	OptionalInt schemaVersion() {
		boolean recorded = jdbc.sql("SELECT to_regclass('jobqueue_schema_version') IS NOT NULL").query(Boolean.class).single();
		return recorded ? OptionalInt.of(jdbc.sql("SELECT version FROM jobqueue_schema_version").query(Integer.class).single())
				: OptionalInt.empty();
	}
}
