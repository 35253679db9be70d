package dev.jobqueue.store.postgres;

import static dev.jobqueue.store.postgres.PostgresDialect.TRANSITIONS;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ClaimOrder;
import dev.jobqueue.store.ClaimStore;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Lease;

/**
 * The PostgreSQL statements of a worker's hold on its jobs: the claim, its confirmations, the heartbeat, and the
 * look-up of cancelled leases. The outcomes that end an execution are {@link PostgresOutcomes}'; what this comment
 * says of lock order, asynchronous commits and batch look-ups holds for them too.
 *
 * <p>Lock order: the statements that wait for row locks on many rows (batched completion, confirmations) lock
 * them in id order first, so two of them over the same rows queue up instead of deadlocking. The claim, the
 * heartbeat, the reaper and the pruner never wait (SKIP LOCKED); the other writes touch one row.
 *
 * <p>The claim, the confirmations and the batched completion commit asynchronously: {@code synchronous_commit}
 * is off for their own transaction only, set by a CTE {@code async_commit} that the statement joins so that
 * it runs before the commit reads the setting. They return once committed in memory, without waiting
 * for the WAL flush. A database crash can lose the last fraction of a second of them, and a lost claim
 * or completion only makes the job run again (its row is back to ready, or still running with a lease
 * the reaper takes back), which at-least-once delivery allows; a lost confirmation only gives the
 * attempt back when the job is reaped. Enqueues, the completions of
 * transactional handlers and every failure or release keep a synchronous commit.
 *
 * <p>Batch lookup: the batched completion and the heartbeat take their batch as parallel arrays sorted
 * by job id, without repeats. They fetch the rows by {@code id = ANY(ids)}, an index lookup per element,
 * and {@code width_bucket(id, ids)}, a binary search, gives a row's position in the arrays. There is no
 * join between the batch and the table: the planner guesses ten elements for an array parameter, and a
 * join planned on that guess compared every row with every entry, so that a batch of 500 cost 250,000
 * comparisons, and the completions that piled up behind it made the next batch as large.
 */
final class PostgresClaims implements ClaimStore {

	/**
	 * One statement: pick the due rows in claim order, lock them, and mark them running. SKIP LOCKED lets concurrent
	 * pollers pass over rows another poller is claiming at this instant, so they never block each other and never pick
	 * the same row. The partial index over ready rows (queue, priority, run_at, id) is read one priority at a time
	 * (0 – 9, the table's check), each descent bounded by {@code run_at <= now}: read as one range over the queue, run_at
	 * was only a filter, and the scan walked past every future job of a priority (delayed jobs, retries in backoff)
	 * before it reached the next priority's due ones (decision record 003). The priorities are a nested loop's outer
	 * side, in the order of the VALUES list, so the rows come in claim order, and the outer LIMIT stops pulling once
	 * it has {@code :limit} rows: a row is locked when it is pulled, so the claim locks no more than it takes. No
	 * ORDER BY above the join: a sort there would pull, and lock, every priority's rows first.
	 *
	 * <p>Rows of kinds this node does not serve, and rows of a payload version newer than it reads, are passed over by
	 * one filter, read from the row: the index has neither kind nor version, and decision record 004 says why. The
	 * row's kind finds its newest readable version at the same position in {@code :versions} as in {@code :kinds}; a
	 * kind not in {@code :kinds} finds null, which no version is at or below.
	 *
	 * <p>The lease token grows at every claim so that writes from any earlier execution are fenced off.
	 *
	 * <p>Pauses are read in the same statement, so a pause committed before it starts holds on every node at once,
	 * with no cache to go stale: the queue's pause is a subquery on no column of the row, which the planner runs once
	 * (an InitPlan) and which stops the statement before it reads an entry; the paused kinds are read once into a hash
	 * (a hashed SubPlan; NOT IN is safe as name is never null), probed per row, and kept across the priorities, as it
	 * depends on none of them. Times are {@code statement_timestamp()}: the same as {@code now()} for a claim that is
	 * a transaction of its own, as the runtime's are; a test's drain (queue-test) claims inside the test's
	 * transaction, where {@code now()} is that transaction's start and a job enqueued in it would never be due.
	 */
	static final String CLAIM = """
			WITH picked AS (
			    SELECT due.id
			    FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) AS priorities (priority)
			    CROSS JOIN LATERAL (
			        SELECT id FROM jobqueue_job
			        WHERE state = 'ready' AND queue = :queue AND priority = priorities.priority
			          AND run_at <= statement_timestamp()
			          AND payload_version <= (CAST(:versions AS int[]))[array_position(CAST(:kinds AS text[]), kind)]
			          AND kind NOT IN (SELECT name FROM jobqueue_pause WHERE scope = 'kind' AND paused)
			        ORDER BY run_at, id
			        LIMIT :limit
			        FOR UPDATE SKIP LOCKED
			    ) AS due
			    WHERE NOT EXISTS (SELECT 1 FROM jobqueue_pause WHERE scope = 'queue' AND name = :queue AND paused)
			    LIMIT :limit
			), async_commit AS (
			    SELECT set_config('synchronous_commit', 'off', true)
			)
			UPDATE jobqueue_job j
			SET state = 'running', attempt = j.attempt + 1, lease_token = j.lease_token + 1,
			    lease_owner = :owner,
			    lease_expires_at = statement_timestamp() + :leaseMillis * interval '1 millisecond',
			    started_at = statement_timestamp(), claim_confirmed = :confirmed
			FROM picked, async_commit
			WHERE j.id = picked.id
			RETURNING j.id, j.queue, j.kind, j.payload::text, j.payload_version, j.attempt, j.max_attempts,
			          j.priority, j.lease_token, j.run_at, j.started_at, j.snoozes, j.concurrency_key,
			          j.trace_context, j.has_dependents""";

	private final JdbcClient jdbc;

	PostgresClaims(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner,
			Duration lease, boolean confirmed) {
		List<Map.Entry<String, Integer>> served = List.copyOf(versions.entrySet());
		List<ClaimedJob> claimed = jdbc.sql(CLAIM)
			.param("queue", queue)
			.param("kinds", served.stream().map(Map.Entry::getKey).toArray(String[]::new))
			.param("versions", served.stream().map(Map.Entry::getValue).toArray(Integer[]::new))
			.param("limit", limit)
			.param("owner", owner)
			.param("leaseMillis", lease.toMillis())
			.param("confirmed", confirmed)
			.query((rs, n) -> new ClaimedJob(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
					rs.getInt(5), rs.getInt(6), rs.getInt(7), rs.getInt(8), new Lease(rs.getLong(1), rs.getLong(9)),
					PostgresRows.instant(rs, 10), PostgresRows.instant(rs, 11), rs.getInt(12), rs.getString(13),
					rs.getString(14), rs.getBoolean(15)))
			.list();
		// RETURNING gives no order; hand the jobs out in claim order.
		return ClaimOrder.sort(claimed);
	}

	/**
	 * The ready index is ordered by priority before run-at, so a queue's earliest due job is not its first
	 * entry: one short descent per priority (0 – 9, the table's check) finds each priority's earliest job of
	 * the served kinds and versions, read in run-at order, and the horizon bounds how far a descent walks
	 * past jobs of other kinds. Ten index probes, whatever the backlog; the milliseconds are the database's,
	 * rounded up, so a poller that sleeps them never wakes before the job is due. It passes over paused jobs
	 * as the claim does: a paused queue with due jobs would otherwise send its poller claiming every few
	 * milliseconds for nothing.
	 */
	@Override
	public Optional<Duration> nextDueWithin(String queue, Map<String, Integer> versions, Duration horizon) {
		List<Map.Entry<String, Integer>> served = List.copyOf(versions.entrySet());
		Optional<Long> millis = jdbc.sql("""
				WITH priorities (priority) AS (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9))
				SELECT CAST(ceil(EXTRACT(EPOCH FROM min(next.run_at) - now()) * 1000) AS bigint)
				FROM priorities CROSS JOIN LATERAL (
				    SELECT run_at FROM jobqueue_job
				    WHERE state = 'ready' AND queue = :queue AND priority = priorities.priority
				      AND run_at <= now() + :horizonMillis * interval '1 millisecond'
				      AND payload_version <= (CAST(:versions AS int[]))[array_position(CAST(:kinds AS text[]), kind)]
				      AND kind NOT IN (SELECT name FROM jobqueue_pause WHERE scope = 'kind' AND paused)
				    ORDER BY run_at
				    LIMIT 1
				) AS next
				WHERE NOT EXISTS (SELECT 1 FROM jobqueue_pause WHERE scope = 'queue' AND name = :queue AND paused)""")
			.param("queue", queue)
			.param("horizonMillis", horizon.toMillis())
			.param("kinds", served.stream().map(Map.Entry::getKey).toArray(String[]::new))
			.param("versions", served.stream().map(Map.Entry::getValue).toArray(Integer[]::new))
			.query((rs, n) -> {
				long due = rs.getLong(1);
				return rs.wasNull() ? Optional.<Long>empty() : Optional.of(due);
			})
			.single();
		// min() over no row is null: nothing due within the horizon.
		return millis.map(Duration::ofMillis);
	}

	/**
	 * Sets the confirmation flag of the rows of {@code :ids} the owner still runs under the lease tokens of
	 * {@code :tokens}, and nothing else: no indexed column changes, so PostgreSQL can update the rows in place (HOT)
	 * without new index entries, and the commit does not wait for the WAL flush (see the class comment). The rows are
	 * locked in id order first: the heartbeat's late confirmation of a started job may meet that job's batched
	 * completion. {@code %1$s} is what else a row must meet, {@code %2$s} what the statement returns.
	 */
	private static final String CONFIRM = """
			WITH locked AS (
			    SELECT j.id, width_bucket(j.id, CAST(:ids AS bigint[])) AS i
			    FROM jobqueue_job j
			    WHERE j.id = ANY(CAST(:ids AS bigint[])) AND j.state = 'running' AND j.lease_owner = :owner
			      AND j.lease_token = (CAST(:tokens AS bigint[]))[width_bucket(j.id, CAST(:ids AS bigint[]))]
			      %1$s
			    ORDER BY j.id
			    FOR UPDATE OF j
			), async_commit AS (
			    SELECT set_config('synchronous_commit', 'off', true)
			)
			UPDATE jobqueue_job j
			SET claim_confirmed = true
			FROM locked CROSS JOIN async_commit
			WHERE j.id = locked.id AND j.lease_token = (CAST(:tokens AS bigint[]))[locked.i] AND j.state = 'running'
			  AND j.lease_owner = :owner
			%2$s""";

	@Override
	public void confirm(String owner, Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return;
		}
		byLease(CONFIRM.formatted("AND NOT j.claim_confirmed", ""), owner, leases).update();
	}

	/**
	 * Read through the lease index, whose entries are the running jobs, and HOT as {@link #confirm}; rare (a claim
	 * failed), so it commits synchronously, and waits for row locks: a job of {@code held} is not touched.
	 */
	@Override
	public void takeBackConfirmations(String owner, String queue, Collection<Lease> held) {
		jdbc.sql("""
				UPDATE jobqueue_job
				SET claim_confirmed = false
				WHERE lease_expires_at IS NOT NULL AND state = 'running' AND lease_owner = :owner AND queue = :queue
				  AND claim_confirmed AND NOT (id = ANY(CAST(:held AS bigint[])))""")
			.param("owner", owner)
			.param("queue", queue)
			.param("held", held.stream().map(Lease::jobId).toArray(Long[]::new))
			.update();
	}

	/** {@link #CONFIRM} of the jobs whose queue and kind are not paused, read as the claim reads them. */
	@Override
	public Set<Lease> confirmStarts(String owner, Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		String notPaused = """
				AND NOT EXISTS (SELECT 1 FROM jobqueue_pause WHERE scope = 'queue' AND name = j.queue AND paused)
				      AND j.kind NOT IN (SELECT name FROM jobqueue_pause WHERE scope = 'kind' AND paused)""";
		return new HashSet<>(byLease(CONFIRM.formatted(notPaused, "RETURNING j.id, j.lease_token"), owner, leases)
			.query((rs, n) -> new Lease(rs.getLong(1), rs.getLong(2)))
			.list());
	}

	@Override
	public Set<Lease> heartbeat(String owner, Collection<Lease> leases, Duration lease) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		// Looked up like the batched completion (see the batch lookup in the class comment). A row locked by the
		// job's own completion or confirmation is passed over: waiting behind one that a held xmin or a loaded
		// server slows down let the heartbeat miss its turn and put every other lease at risk. A cancelled job's
		// lease is extended too, but not returned: the heartbeat learns of the cancel from it.
		return new HashSet<>(byLease("""
				WITH locked AS (
				    SELECT j.id, width_bucket(j.id, CAST(:ids AS bigint[])) AS i
				    FROM jobqueue_job j
				    WHERE j.id = ANY(CAST(:ids AS bigint[])) AND %1$s AND j.lease_owner = :owner
				      AND j.lease_token = (CAST(:tokens AS bigint[]))[width_bucket(j.id, CAST(:ids AS bigint[]))]
				    FOR UPDATE OF j SKIP LOCKED
				), renewed AS (
				    UPDATE jobqueue_job j
				    SET lease_expires_at = now() + :leaseMillis * interval '1 millisecond'
				    FROM locked
				    WHERE j.id = locked.id AND j.lease_token = (CAST(:tokens AS bigint[]))[locked.i] AND %1$s
				      AND j.lease_owner = :owner
				    RETURNING j.id, j.lease_token, j.state
				)
				SELECT id, lease_token FROM renewed WHERE state = 'running'""".formatted(TRANSITIONS.leaseKept("j")),
				owner, leases)
			.param("leaseMillis", lease.toMillis())
			.query((rs, n) -> new Lease(rs.getLong(1), rs.getLong(2)))
			.list());
	}

	/** Read only when a heartbeat did not extend some leases: rare, and a few rows by primary key. */
	@Override
	public Set<Lease> held(String owner, Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		Set<Lease> held = new HashSet<>(jdbc.sql("""
				SELECT id, lease_token FROM jobqueue_job
				WHERE id = ANY(CAST(:ids AS bigint[])) AND state = 'running' AND lease_owner = :owner""")
			.param("ids", leases.stream().map(Lease::jobId).toArray(Long[]::new))
			.param("owner", owner)
			.query((rs, n) -> new Lease(rs.getLong(1), rs.getLong(2)))
			.list());
		held.retainAll(Set.copyOf(leases));
		return held;
	}

	/** Read only when a heartbeat or an outcome found leases lost: rare, and a few rows by primary key. */
	@Override
	public Set<Lease> cancelled(Collection<Lease> leases) {
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

	/**
	 * {@code sql} bound to the owner and to the newest lease of each job, in id order, as {@code :ids} and
	 * {@code :tokens}: the arrays the statements that lock many leased rows look them up and lock them by.
	 */
	private JdbcClient.StatementSpec byLease(String sql, String owner, Collection<Lease> leases) {
		List<Lease> byId = PostgresRows.newestPerJob(leases, held -> held);
		return jdbc.sql(sql)
			.param("ids", byId.stream().map(Lease::jobId).toArray(Long[]::new))
			.param("tokens", byId.stream().map(Lease::token).toArray(Long[]::new))
			.param("owner", owner);
	}
}
