package dev.jobqueue.store.postgres;

import static dev.jobqueue.store.postgres.PostgresDialect.TRANSITIONS;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job.AttemptError;
import dev.jobqueue.JobState;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.ErrorHistory;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.OutcomeStore;

/**
 * The PostgreSQL statements that end an execution, each fenced by the lease token: success (one job or a batch),
 * retry, snooze, death, release and hand-back. Lock order, asynchronous commits and the batch look-up are as
 * {@link PostgresClaims} says.
 */
final class PostgresOutcomes implements OutcomeStore {

	private final JdbcClient jdbc;

	private final boolean notify;

	PostgresOutcomes(JdbcClient jdbc, boolean notify) {
		this.jdbc = jdbc;
		this.notify = notify;
	}

	/**
	 * A succeeded job has no current error: an earlier attempt's stays in the error history, which only the
	 * failures write.
	 */
	@Override
	public boolean complete(Lease lease, String resultJson) {
		// statement_timestamp(), not now(): a transactional handler's completion runs at the end of the
		// handler's transaction, and now() is when that transaction began.
		// Awaiters hear of every finish on jobqueue_finished (see completeAll).
		return !jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'succeeded', result = CAST(:result AS jsonb), finished_at = statement_timestamp(),
				    lease_owner = NULL, lease_expires_at = NULL, last_error = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'
				RETURNING CASE WHEN :notify THEN pg_notify('jobqueue_finished', '') IS NULL END""")
			.param("result", resultJson)
			.param("id", lease.jobId())
			.param("token", lease.token())
			.param("notify", notify)
			.query((rs, n) -> 1)
			.list()
			.isEmpty();
	}

	@Override
	public Set<Lease> completeAll(Collection<Completion> completions) {
		if (completions.isEmpty()) {
			return Set.of();
		}
		List<Completion> byId = PostgresRows.newestPerJob(completions, Completion::lease);
		// The rows are locked in id order (the locking clause runs above the sort) before any is updated;
		// a row whose token moved on fails the re-checked WHERE of FOR UPDATE and is left out, so its
		// lease comes back as lost. The class comment says how a row finds its token and result. The time
		// is statement_timestamp(), as the claim's is (a test's drain completes inside the test's transaction).
		// Awaiters (JobQueue.await) are told on jobqueue_finished, with no payload: they look their jobs up
		// again. PostgreSQL sends identical notifications of one transaction once, so the batch costs one
		// notification, whatever its size; a payload naming each job would cost one per job.
		List<Lease> written = jdbc.sql("""
				WITH locked AS (
				    SELECT j.id, width_bucket(j.id, CAST(:ids AS bigint[])) AS i
				    FROM jobqueue_job j
				    WHERE j.id = ANY(CAST(:ids AS bigint[])) AND j.state = 'running'
				      AND j.lease_token = (CAST(:tokens AS bigint[]))[width_bucket(j.id, CAST(:ids AS bigint[]))]
				    ORDER BY j.id
				    FOR UPDATE OF j
				), async_commit AS (
				    SELECT set_config('synchronous_commit', 'off', true)
				)
				UPDATE jobqueue_job j
				SET state = 'succeeded', result = CAST((CAST(:results AS text[]))[locked.i] AS jsonb),
				    finished_at = statement_timestamp(), lease_owner = NULL, lease_expires_at = NULL, last_error = NULL
				FROM locked CROSS JOIN async_commit
				WHERE j.id = locked.id AND j.lease_token = (CAST(:tokens AS bigint[]))[locked.i] AND j.state = 'running'
				RETURNING j.id, j.lease_token, CASE WHEN :notify THEN pg_notify('jobqueue_finished', '') IS NULL END""")
			.param("notify", notify)
			.param("ids", byId.stream().map(c -> c.lease().jobId()).toArray(Long[]::new))
			.param("tokens", byId.stream().map(c -> c.lease().token()).toArray(Long[]::new))
			.param("results", byId.stream().map(Completion::result).toArray(String[]::new))
			.query((rs, n) -> new Lease(rs.getLong(1), rs.getLong(2)))
			.list();
		Set<Lease> lost = new HashSet<>();
		completions.forEach(c -> lost.add(c.lease()));
		written.forEach(lost::remove);
		return lost;
	}

	/**
	 * The failure's entry goes on the end of the error history ({@link #appendError}). Times are
	 * statement_timestamp(): should the write run inside a longer transaction, now() would be that transaction's
	 * start.
	 */
	@Override
	public boolean retryLater(Lease lease, Duration delay, String error) {
		return jdbc.sql("""
				UPDATE jobqueue_job
				SET state = %s,
				    run_at = statement_timestamp() + :delayMillis * interval '1 millisecond',
				    last_error = :error, errors = %s,
				    lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""".formatted(
				TRANSITIONS.backFromRunning(""), appendError("", "statement_timestamp()", ":entry")))
			.param("delayMillis", delay.toMillis())
			.param("error", error)
			.param("maxEntries", AttemptError.MAX_ENTRIES)
			.param("entry", ErrorHistory.entry(error))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	/** Fenced like every outcome; the attempt is given back, so that it does not count. */
	@Override
	public boolean snooze(Lease lease, Duration delay) {
		return jdbc.sql("""
				UPDATE jobqueue_job
				SET state = %s,
				    run_at = statement_timestamp() + :delayMillis * interval '1 millisecond',
				    attempt = attempt - 1, snoozes = snoozes + 1, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""".formatted(
				TRANSITIONS.backFromRunning("")))
			.param("delayMillis", delay.toMillis())
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	/** Like {@link #retryLater}: an entry on the error history, the statement's own time; awaiters told. */
	@Override
	public boolean fail(Lease lease, String error) {
		return end(lease, JobState.dead, error);
	}

	@Override
	public boolean cancelByHandler(Lease lease, String reason) {
		return end(lease, JobState.cancelled, reason);
	}

	/** running → {@code state}, finished, the error on the history, the lease let go. */
	private boolean end(Lease lease, JobState state, String error) {
		return !jdbc.sql("""
				UPDATE jobqueue_job
				SET state = :state, last_error = :error, finished_at = statement_timestamp(),
				    errors = %s, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'
				RETURNING CASE WHEN :notify THEN pg_notify('jobqueue_finished', '') IS NULL END""".formatted(
				appendError("", "statement_timestamp()", ":entry")))
			.param("state", state.name())
			.param("error", error)
			.param("maxEntries", AttemptError.MAX_ENTRIES)
			.param("entry", ErrorHistory.entry(error))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.param("notify", notify)
			.query((rs, n) -> 1)
			.list()
			.isEmpty();
	}

	/**
	 * The SQL of the error history of the row with the given alias with an entry for this attempt on its end, the
	 * oldest dropped once it is full (see {@link ErrorHistory}).
	 */
	static String appendError(String alias, String at, String message) {
		String q = alias.isEmpty() ? "" : alias + ".";
		return """
				CASE WHEN jsonb_array_length(%1$serrors) >= :maxEntries THEN %1$serrors - 0 ELSE %1$serrors END
				|| jsonb_build_array(jsonb_build_object('attempt', %1$sattempt, 'at', %2$s,
				                                        'worker', %1$slease_owner, 'message', %3$s))""".formatted(q, at,
				message);
	}

	@Override
	public boolean release(Lease lease) {
		// A released job is due at once: tell the other nodes, so one of them starts it now. Its attempt
		// is given back once per job (V4), so that a job interrupted at every deploy still reaches dead.
		String release = """
				UPDATE jobqueue_job
				SET state = %s, attempt = attempt - 1, attempt_given_back = true, lease_owner = NULL,
				    lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running' AND %s
				RETURNING queue""".formatted(TRANSITIONS.backFromRunning(""), TRANSITIONS.releasable(""));
		return changesRow(PostgresRows.notifyingReady(release, notify), lease);
	}

	/** As {@link #release}, other nodes told, without the once-per-job flag: the handler never started. */
	@Override
	public boolean handBack(Lease lease) {
		String handBack = """
				UPDATE jobqueue_job
				SET state = %s, attempt = attempt - 1, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'
				RETURNING queue""".formatted(TRANSITIONS.backFromRunning(""));
		return changesRow(PostgresRows.notifyingReady(handBack, notify), lease);
	}

	@Override
	public boolean endCancelled(Lease lease) {
		return changesRow("""
				UPDATE jobqueue_job
				SET lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND %s
				RETURNING id""".formatted(TRANSITIONS.cancelledWithLease("")), lease);
	}

	/** Whether the lease's statement changed its job's row: it returns one row per row changed. */
	private boolean changesRow(String sql, Lease lease) {
		return !jdbc.sql(sql)
			.param("id", lease.jobId())
			.param("token", lease.token())
			.query((rs, n) -> 1)
			.list()
			.isEmpty();
	}
}
