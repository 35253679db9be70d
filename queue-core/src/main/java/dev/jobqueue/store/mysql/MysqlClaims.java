package dev.jobqueue.store.mysql;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Lease;

/**
 * The poller's statements on MySQL: when the next job is due, the claim ({@link MysqlLockingClaim} or
 * {@link MysqlCasClaim}) and its confirmation, in the claim's own update or in a statement after it. The confirmation
 * is fenced as {@link MysqlLeases}' writes are, by primary key and lease token.
 */
final class MysqlClaims {

	/** The next due time (see {@link #nextDueWithin}), a constant so that a test can ask for its plan. */
	static final String NEXT_DUE = """
			SELECT TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), min(next.run_at))
			FROM (SELECT (SELECT run_at FROM jobqueue_job FORCE INDEX (jobqueue_job_ready_idx)
			              WHERE queue = :queue AND state = 'ready' AND priority = priorities.priority
			                AND run_at <= UTC_TIMESTAMP(6) + INTERVAL :horizonMicros MICROSECOND
			                AND kind IN (:kinds) AND payload_version <= ELT(FIELD(kind, :kinds), :versions)
			                AND kind NOT IN (SELECT name FROM jobqueue_pause WHERE scope = 'kind' AND paused)
			              ORDER BY run_at
			              LIMIT 1) AS run_at
			      FROM (SELECT 0 AS priority UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
			            UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)
			           AS priorities) AS next
			WHERE NOT EXISTS (SELECT 1 FROM jobqueue_pause WHERE scope = 'queue' AND name = :queue AND paused)""";

	private final JdbcClient jdbc;

	private final MysqlClaim claim;

	MysqlClaims(JdbcClient jdbc, MysqlClaim claim) {
		this.jdbc = jdbc;
		this.claim = claim;
	}

	List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner, Duration lease) {
		// A node that serves no kind of the queue takes nothing; FIELD and IN need at least one kind.
		if (versions.isEmpty() || limit <= 0) {
			return List.of();
		}
		return claim.claim(queue, versions, limit, owner, lease, MysqlClaimConfirmation.afterAnswer());
	}

	/**
	 * The claim, confirmed by its own update: MySQL sends the rows of the claim's reads before its update and commit,
	 * so the worker holds them when the update is written, and is spared the confirmation's statement and commit.
	 * What the worker may not hold is the answer to the commit. A claim that fails, having sent its update, cannot
	 * tell whether it committed: it takes the confirmation back, on a connection of its own, from the leases its
	 * update would have written to this owner. If the commit went through, the jobs are then unconfirmed, as after a
	 * plain claim whose answer was lost, and the reaper gives their attempts back; if it did not, no row holds those
	 * leases (this owner's next claim of the queue comes after this one), and nothing changes.
	 */
	List<ClaimedJob> claimConfirmed(String queue, Map<String, Integer> versions, int limit, String owner,
			Duration lease) {
		if (versions.isEmpty() || limit <= 0) {
			return List.of();
		}
		MysqlClaimConfirmation confirmation = MysqlClaimConfirmation.inClaim();
		try {
			return claim.claim(queue, versions, limit, owner, lease, confirmation);
		}
		catch (RuntimeException ex) {
			takeBackConfirmation(owner, confirmation.sent(), ex);
			throw ex;
		}
	}

	/** Sets {@code leases} unconfirmed where {@code owner} holds them; a failure to is kept on {@code failure}. */
	private void takeBackConfirmation(String owner, List<Lease> leases, RuntimeException failure) {
		try {
			setConfirmed(owner, leases, false);
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
		}
	}

	/**
	 * The confirmation of a claim that did not confirm itself ({@link #claim}): the flag only, the expiry left alone,
	 * unlike the heartbeat.
	 */
	void confirm(String owner, Collection<Lease> leases) {
		setConfirmed(owner, leases, true);
	}

	/**
	 * One statement in auto-commit: the ids' list is a range of the primary key, read in id order like the batched
	 * writes, and the pairs keep each lease's token; a row whose flag has the value already is left alone.
	 */
	private void setConfirmed(String owner, Collection<Lease> leases, boolean confirmed) {
		if (leases.isEmpty()) {
			return;
		}
		jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET claim_confirmed = :confirmed
				WHERE id IN (:ids) AND (id, lease_token) IN (:leases)
				  AND state = 'running' AND lease_owner = :owner AND claim_confirmed <> :confirmed""")
			.param("confirmed", confirmed)
			.param("ids", leases.stream().map(Lease::jobId).distinct().toList())
			.param("leases", leases.stream().map(lease -> new Object[] { lease.jobId(), lease.token() }).toList())
			.param("owner", owner)
			.update();
	}

	/**
	 * As on PostgreSQL (PostgresExecution.nextDueWithin says why a descent per priority, and why paused jobs do
	 * not count): ten probes of the claim index, each the first entry of a priority in run-at order.
	 */
	Optional<Duration> nextDueWithin(String queue, Map<String, Integer> versions, Duration horizon) {
		if (versions.isEmpty()) {
			return Optional.empty();
		}
		List<Map.Entry<String, Integer>> served = List.copyOf(versions.entrySet());
		Optional<Long> micros = jdbc.sql(NEXT_DUE)
			.param("queue", queue)
			.param("horizonMicros", MysqlRows.micros(horizon))
			.param("kinds", served.stream().map(Map.Entry::getKey).toList())
			.param("versions", served.stream().map(Map.Entry::getValue).toList())
			.query((rs, n) -> {
				long due = rs.getLong(1);
				return rs.wasNull() ? Optional.<Long>empty() : Optional.of(due);
			})
			.optional()
			.flatMap(due -> due);
		// min() over no row is null: nothing due within the horizon.
		return micros.map(due -> Duration.of(due, ChronoUnit.MICROS));
	}
}
