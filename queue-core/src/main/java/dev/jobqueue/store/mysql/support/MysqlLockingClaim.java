package dev.jobqueue.store.mysql.support;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ClaimedJob;

/**
 * The claim with {@code SKIP LOCKED}: one short READ COMMITTED transaction of three statements, a plain read of the
 * due rows in claim order, a locking read of those rows by primary key, and one update of the rows it locked.
 *
 * <p>Why the due rows are first read without locks: a claim changes {@code state}, which follows the queue in the
 * claim index, so every claimed row leaves a delete-marked entry at the head of its priority's range until InnoDB's
 * purge removes it, and during a drain the purge trails the claims by a few hundred rows. A locking read locks each
 * entry it meets and looks up its row, the delete-marked ones too, before it can tell they are gone, and it meets
 * them twice: in the priority's own range, and in the range of every empty priority before it, which starts where
 * the next entries begin. The locking read of 18 rows visited 7,850 pages on average during a drain on MariaDB
 * 10.11, up to 17,000 before each purge batch (the slow log's {@code Pages_accessed}); with 2,000 such entries held
 * by an open snapshot, the locking read of 32 rows visited 24,101 pages and the same plain read 101. A plain read
 * sees every committed due row, so the claim's order and what it finds do not change.
 */
public final class MysqlLockingClaim implements MysqlClaim {

	/**
	 * How many due rows the plain read takes per job the claim wants: claims of other nodes read the same head of
	 * the queue, and the spare rows are what this claim locks instead of the ones they hold.
	 */
	public static final int CANDIDATES_PER_JOB = 2;

	/**
	 * The plain read, a constant so that a test can ask for its plan. The range is the claim index (queue, state,
	 * priority, run_at, id) with state = 'ready' right after the queue, so it never reads an entry of a finished or
	 * running row; the list of every priority (0 - 9, the column's check) makes it ten ranges, each from the
	 * priority's first entry up to run_at <= now, read in index order, so the rows come in claim order with no sort
	 * and the walk never passes a future job (a delayed one, a retry in backoff) to reach the next priority's due
	 * ones. Rows of kinds this node does not serve, and of payload versions newer than it reads, are passed over,
	 * read from the row as on PostgreSQL: FIELD finds the kind's position in :kinds, and ELT the newest readable
	 * version at the same position in :versions. Pauses are subqueries that count, as in the locking read that
	 * follows, and so that both read the same (there, a NOT EXISTS or NOT IN could be merged into the locking block
	 * as an antijoin on MySQL 8 and lock the pause rows, reading a paused kind as not paused where another claim
	 * held them; a subquery with an aggregate is never merged). FORCE INDEX, because with a kind or two in :kinds
	 * the optimizer preferred the unique-key index (kind first) and sorted what it found.
	 */
	public static final String CANDIDATES = """
			SELECT id
			FROM jobqueue_job FORCE INDEX (jobqueue_job_ready_idx)
			WHERE queue = :queue AND state = 'ready' AND priority IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
			  AND run_at <= UTC_TIMESTAMP(6)
			  AND kind IN (:kinds) AND payload_version <= ELT(FIELD(kind, :kinds), :versions)
			  AND (SELECT count(*) FROM jobqueue_pause WHERE scope = 'queue' AND name = :queue AND paused) = 0
			  AND (SELECT count(*) FROM jobqueue_pause p WHERE p.scope = 'kind' AND p.name = jobqueue_job.kind AND p.paused) = 0
			ORDER BY priority, run_at, id
			LIMIT :candidates""";

	/**
	 * The locking read of the candidates, by primary key: SKIP LOCKED passes over rows another claim holds at this
	 * instant, so claims never wait for each other and never take the same row, and the claim is in no deadlock.
	 * What made a row due is read again under the lock, since another claim may have taken it, or taken, failed and
	 * delayed it, between the two reads; a pause that lands between them is seen by the next claim, as one that
	 * lands just after a claim. The rows it locks but does not return (the sort comes after the lock) stay locked
	 * until the claim commits, a few milliseconds. The database's clock is read once, here, and the update writes
	 * that reading.
	 */
	public static final String LOCK = """
			SELECT id, queue, kind, payload, payload_version, attempt, max_attempts, priority, lease_token, run_at,
			       snoozes, concurrency_key, trace_context, has_dependents, UTC_TIMESTAMP(6) AS claimed_at
			FROM jobqueue_job FORCE INDEX (PRIMARY)
			WHERE id IN (:ids) AND queue = :queue AND state = 'ready' AND run_at <= UTC_TIMESTAMP(6)
			ORDER BY priority, run_at, id
			LIMIT :limit
			FOR UPDATE SKIP LOCKED""";

	private final JdbcClient jdbc;

	private final MysqlTransactions transactions;

	public MysqlLockingClaim(JdbcClient jdbc, MysqlTransactions transactions) {
		this.jdbc = jdbc;
		this.transactions = transactions;
	}

	@Override
	public List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner,
			Duration lease, boolean confirmed) {
		List<Map.Entry<String, Integer>> served = List.copyOf(versions.entrySet());
		return transactions.run(() -> {
			List<Long> due = jdbc.sql(CANDIDATES)
				.param("queue", queue)
				.param("kinds", served.stream().map(Map.Entry::getKey).toList())
				.param("versions", served.stream().map(Map.Entry::getValue).toList())
				.param("candidates", Math.multiplyExact(limit, CANDIDATES_PER_JOB))
				.query(Long.class)
				.list();
			if (due.isEmpty()) {
				return List.of();
			}
			List<MysqlCandidate> candidates = jdbc.sql(LOCK)
				.param("ids", due)
				.param("queue", queue)
				.param("limit", limit)
				.query(MysqlCandidate::read)
				.list();
			if (candidates.isEmpty()) {
				return List.of();
			}
			LocalDateTime now = candidates.get(0).claimedAt();
			List<ClaimedJob> claimed = new ArrayList<>(candidates.size());
			candidates.forEach(candidate -> claimed.add(candidate.claimed(now)));
			// The lease token grows at every claim, so that writes from any earlier execution are fenced off.
			jdbc.sql("""
					UPDATE jobqueue_job
					SET state = 'running', attempt = attempt + 1, lease_token = lease_token + 1, lease_owner = :owner,
					    lease_expires_at = :now + INTERVAL :leaseMicros MICROSECOND, started_at = :now,
					    claim_confirmed = :confirmed
					WHERE id IN (:ids)""")
				.param("owner", owner)
				.param("now", MysqlValues.parameter(now))
				.param("leaseMicros", MysqlValues.micros(lease))
				.param("confirmed", confirmed)
				.param("ids", candidates.stream().map(MysqlCandidate::id).toList())
				.update();
			return claimed;
		});
	}
}
