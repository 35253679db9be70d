package dev.jobqueue.store.mysql;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ClaimedJob;

/**
 * The claim with {@code SKIP LOCKED}: one short READ COMMITTED transaction of two statements, a locking read of
 * the due rows and one update of the rows it locked.
 */
final class MysqlLockingClaim implements MysqlClaim {

	/**
	 * The claim's read, a constant so that a test can ask for its plan. SKIP LOCKED lets concurrent pollers pass
	 * over rows another poller is claiming at this instant, so they never wait for each other and never pick the
	 * same row; the claim never waits for a lock at all, so it is in no deadlock. The range is the claim index
	 * (queue, state, priority, run_at, id) with state = 'ready' right after the queue, so it never reads an entry of
	 * a finished or running row; the list of every priority (0 - 9, the column's check) makes it ten ranges, each
	 * from the priority's first entry up to run_at <= now, read in index order, so the rows come in claim order
	 * with no sort and the walk never passes a future job (a delayed one, a retry in backoff) to reach the next
	 * priority's due ones. Rows of kinds this node does not serve, and of payload versions newer than it reads,
	 * are passed over, read from the row as on PostgreSQL: FIELD finds the kind's position in :kinds, and ELT the
	 * newest readable version at the same position in :versions. Pauses are plain reads in subqueries that count:
	 * the locking clause locks the rows of its own query block only, and MySQL 8 may merge a NOT EXISTS or NOT IN
	 * into that block as an antijoin, whose pause rows the claim would then lock too, and skip where another claim
	 * holds them, reading a paused kind as not paused. A subquery with an aggregate is never merged. The kind's
	 * pause is one probe of the pause table's primary key per candidate row. FORCE INDEX, because with a kind or
	 * two in :kinds the optimizer preferred the unique-key index (kind first) and sorted what it found. The
	 * database's clock is read once, here, and the update writes that reading.
	 */
	static final String CANDIDATES = """
			SELECT id, queue, kind, payload, payload_version, attempt, max_attempts, priority, lease_token, run_at,
			       snoozes, concurrency_key, trace_context, UTC_TIMESTAMP(6) AS claimed_at
			FROM jobqueue_job FORCE INDEX (jobqueue_job_ready_idx)
			WHERE queue = :queue AND state = 'ready' AND priority IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
			  AND run_at <= UTC_TIMESTAMP(6)
			  AND kind IN (:kinds) AND payload_version <= ELT(FIELD(kind, :kinds), :versions)
			  AND (SELECT count(*) FROM jobqueue_pause WHERE scope = 'queue' AND name = :queue AND paused) = 0
			  AND (SELECT count(*) FROM jobqueue_pause p WHERE p.scope = 'kind' AND p.name = jobqueue_job.kind AND p.paused) = 0
			ORDER BY priority, run_at, id
			LIMIT :limit
			FOR UPDATE SKIP LOCKED""";

	private final JdbcClient jdbc;

	private final MysqlTransactions transactions;

	MysqlLockingClaim(JdbcClient jdbc, MysqlTransactions transactions) {
		this.jdbc = jdbc;
		this.transactions = transactions;
	}

	@Override
	public List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner,
			Duration lease) {
		List<Map.Entry<String, Integer>> served = List.copyOf(versions.entrySet());
		return transactions.run(() -> {
			List<MysqlCandidate> candidates = jdbc.sql(CANDIDATES)
				.param("queue", queue)
				.param("kinds", served.stream().map(Map.Entry::getKey).toList())
				.param("versions", served.stream().map(Map.Entry::getValue).toList())
				.param("limit", limit)
				.query(MysqlCandidate::read)
				.list();
			if (candidates.isEmpty()) {
				return List.of();
			}
			LocalDateTime now = candidates.get(0).claimedAt();
			// The lease token grows at every claim, so that writes from any earlier execution are fenced off.
			jdbc.sql("""
					UPDATE jobqueue_job
					SET state = 'running', attempt = attempt + 1, lease_token = lease_token + 1, lease_owner = :owner,
					    lease_expires_at = :now + INTERVAL :leaseMicros MICROSECOND, started_at = :now,
					    claim_confirmed = FALSE
					WHERE id IN (:ids)""")
				.param("owner", owner)
				.param("now", MysqlRows.parameter(now))
				.param("leaseMicros", MysqlRows.micros(lease))
				.param("ids", candidates.stream().map(MysqlCandidate::id).toList())
				.update();
			List<ClaimedJob> claimed = new ArrayList<>(candidates.size());
			candidates.forEach(candidate -> claimed.add(candidate.claimed(now)));
			return claimed;
		});
	}
}
