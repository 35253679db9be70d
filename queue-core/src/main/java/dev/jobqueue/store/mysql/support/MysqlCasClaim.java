package dev.jobqueue.store.mysql.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ClaimedJob;

/**
 * The claim for servers without {@code SKIP LOCKED} (MariaDB before 10.6): an optimistic compare-and-set, as
 * db-scheduler and Quartz claim on any database. A plain read picks candidates, taking no lock; then each
 * candidate is claimed by an update that changes it only while it is still ready at the lease token the read
 * saw. The token is the row's version: it grows at every claim, so a candidate another poller claimed in
 * between (and perhaps gave back since, ready again) no longer matches, and the update changes no row. Each
 * update is a statement of its own, holding its one row lock for that statement only, so claims never wait for
 * each other's transactions and never deadlock; a poller that loses a race to another simply claims fewer.
 */
public final class MysqlCasClaim implements MysqlClaim {

	/**
	 * How many candidates a claim reads per job it wants: pollers racing for the head of a queue read the same
	 * rows, and the spare ones are what the losers claim instead of coming back empty.
	 */
	public static final int CANDIDATES_PER_JOB = 3;

	/** The read, as {@link MysqlLockingClaim#CANDIDATES} (whose comment says why it is shaped so), with the row. */
	public static final String CANDIDATES = """
			SELECT id, queue, kind, payload, payload_version, attempt, max_attempts, priority, lease_token, run_at,
			       snoozes, concurrency_key, trace_context, has_dependents, UTC_TIMESTAMP(6) AS claimed_at
			FROM jobqueue_job FORCE INDEX (jobqueue_job_ready_idx)
			WHERE queue = :queue AND state = 'ready' AND priority IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
			  AND run_at <= UTC_TIMESTAMP(6)
			  AND kind IN (:kinds) AND payload_version <= ELT(FIELD(kind, :kinds), :versions)
			  AND (SELECT count(*) FROM jobqueue_pause WHERE scope = 'queue' AND name = :queue AND paused) = 0
			  AND (SELECT count(*) FROM jobqueue_pause p WHERE p.scope = 'kind' AND p.name = jobqueue_job.kind AND p.paused) = 0
			ORDER BY priority, run_at, id
			LIMIT :limit""";

	private final JdbcClient jdbc;

	public MysqlCasClaim(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner,
			Duration lease, boolean confirmed) {
		List<Map.Entry<String, Integer>> served = List.copyOf(versions.entrySet());
		List<MysqlCandidate> candidates = jdbc.sql(CANDIDATES)
			.param("queue", queue)
			.param("kinds", served.stream().map(Map.Entry::getKey).toList())
			.param("versions", served.stream().map(Map.Entry::getValue).toList())
			.param("limit", Math.multiplyExact(limit, CANDIDATES_PER_JOB))
			.query(MysqlCandidate::read)
			.list();
		List<ClaimedJob> claimed = new ArrayList<>(limit);
		for (MysqlCandidate candidate : candidates) {
			if (claimed.size() == limit) {
				break;
			}
			ClaimedJob job = candidate.claimed(candidate.claimedAt());
			if (compareAndSet(candidate, owner, lease, confirmed)) {
				claimed.add(job);
			}
		}
		return claimed;
	}

	/**
	 * Claims the candidate if it is still ready at the token the read saw, confirmed or not; whether it did. Each is
	 * a statement in auto-commit, so a claim that fails has committed the ones before, which no worker received:
	 * the caller takes their confirmation back ({@code ClaimStore.takeBackConfirmations}).
	 */
	private boolean compareAndSet(MysqlCandidate candidate, String owner, Duration lease, boolean confirmed) {
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET state = 'running', attempt = attempt + 1, lease_token = lease_token + 1, lease_owner = :owner,
				    lease_expires_at = :now + INTERVAL :leaseMicros MICROSECOND, started_at = :now,
				    claim_confirmed = :confirmed
				WHERE id = :id AND state = 'ready' AND lease_token = :token""")
			.param("owner", owner)
			.param("confirmed", confirmed)
			.param("now", MysqlValues.parameter(candidate.claimedAt()))
			.param("leaseMicros", MysqlValues.micros(lease))
			.param("id", candidate.id())
			.param("token", candidate.leaseToken())
			.update() == 1;
	}
}
