package dev.jobqueue.store.mysql;

import static dev.jobqueue.store.mysql.MysqlDialect.TRANSITIONS;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ClaimStore;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.mysql.support.MysqlClaim;
import dev.jobqueue.store.mysql.support.MysqlTransactions;
import dev.jobqueue.store.mysql.support.MysqlValues;

/**
 * The poller's statements on MySQL: when the next job is due, the claim ({@link MysqlLockingClaim} or
 * {@link MysqlCasClaim}) and its confirmation, in the claim's own update or in a statement after it, the heartbeat,
 * and the look-up of cancelled leases. The confirmation and the heartbeat are fenced as {@link MysqlOutcomes}' writes
 * are, by primary key and lease token, and lock as they do.
 */
final class MysqlClaims implements ClaimStore {

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

	private final NamedParameterJdbcTemplate named;

	private final MysqlTransactions transactions;

	private final MysqlClaim claim;

	MysqlClaims(JdbcClient jdbc, NamedParameterJdbcTemplate named, MysqlTransactions transactions, MysqlClaim claim) {
		this.jdbc = jdbc;
		this.named = named;
		this.transactions = transactions;
		this.claim = claim;
	}

	/**
	 * MySQL sends the rows of the claim's reads before its update and commit, so the worker holds them when a
	 * confirmed claim's update is written. What the worker may not hold is the answer to the commit, or to the
	 * compare-and-set updates after the first: the caller of a confirmed claim that failed takes the confirmation back
	 * ({@link #takeBackConfirmations}).
	 */
	@Override
	public List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner, Duration lease,
			boolean confirmed) {
		// A node that serves no kind of the queue takes nothing; FIELD and IN need at least one kind.
		if (versions.isEmpty() || limit <= 0) {
			return List.of();
		}
		return claim.claim(queue, versions, limit, owner, lease, confirmed);
	}

	/**
	 * One statement in auto-commit over the state index's running entries of the queue; a job of {@code held} is not
	 * touched. MySQL's NOT IN needs a list of one at least: an id no row has stands for none.
	 */
	@Override
	public void takeBackConfirmations(String owner, String queue, Collection<Lease> held) {
		List<Long> ids = held.isEmpty() ? List.of(0L) : held.stream().map(Lease::jobId).toList();
		jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (jobqueue_job_state_idx)
				SET claim_confirmed = FALSE
				WHERE state = 'running' AND queue = :queue AND lease_owner = :owner AND claim_confirmed
				  AND id NOT IN (:held)""")
			.param("queue", queue)
			.param("owner", owner)
			.param("held", ids)
			.update();
	}

	/**
	 * The confirmation of a claim that did not confirm itself ({@link #claim}), or of a started job whose
	 * confirmation failed: the flag only, the expiry left alone. One statement in auto-commit: the ids' list is a
	 * range of the primary key, read in id order like the batched writes, and the pairs keep each lease's token; a
	 * row confirmed already is left alone.
	 */
	@Override
	public void confirm(String owner, Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return;
		}
		jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET claim_confirmed = TRUE
				WHERE id IN (:ids) AND (id, lease_token) IN (:leases)
				  AND state = 'running' AND lease_owner = :owner AND NOT claim_confirmed""")
			.param("ids", leases.stream().map(Lease::jobId).distinct().toList())
			.param("leases", leases.stream().map(lease -> new Object[] { lease.jobId(), lease.token() }).toList())
			.param("owner", owner)
			.update();
	}

	/**
	 * The update as {@link #confirm}'s, walking the primary key in id order, with the pauses read as the claim reads
	 * them; then, in the same transaction, the rows it confirmed read back, still locked by it, for MySQL's update
	 * returns no rows.
	 */
	@Override
	public Set<Lease> confirmStarts(String owner, Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		List<Long> ids = leases.stream().map(Lease::jobId).distinct().toList();
		return transactions.run(() -> {
			jdbc.sql("""
					UPDATE jobqueue_job FORCE INDEX (PRIMARY)
					SET claim_confirmed = TRUE
					WHERE id IN (:ids) AND (id, lease_token) IN (:leases)
					  AND state = 'running' AND lease_owner = :owner
					  AND (SELECT count(*) FROM jobqueue_pause
					       WHERE scope = 'queue' AND name = jobqueue_job.queue AND paused) = 0
					  AND (SELECT count(*) FROM jobqueue_pause p
					       WHERE p.scope = 'kind' AND p.name = jobqueue_job.kind AND p.paused) = 0""")
				.param("ids", ids)
				.param("leases", leases.stream().map(lease -> new Object[] { lease.jobId(), lease.token() }).toList())
				.param("owner", owner)
				.update();
			Set<Lease> confirmed = new HashSet<>(jdbc.sql("""
					SELECT id, lease_token FROM jobqueue_job FORCE INDEX (PRIMARY)
					WHERE id IN (:ids) AND state = 'running' AND lease_owner = :owner AND claim_confirmed""")
				.param("ids", ids)
				.param("owner", owner)
				.query(MysqlRows::lease)
				.list());
			confirmed.retainAll(Set.copyOf(leases));
			return confirmed;
		});
	}

	/**
	 * As on PostgreSQL (PostgresClaims.nextDueWithin says why a descent per priority, and why paused jobs do
	 * not count): ten probes of the claim index, each the first entry of a priority in run-at order.
	 */
	@Override
	public Optional<Duration> nextDueWithin(String queue, Map<String, Integer> versions, Duration horizon) {
		if (versions.isEmpty()) {
			return Optional.empty();
		}
		List<Map.Entry<String, Integer>> served = List.copyOf(versions.entrySet());
		Optional<Long> micros = jdbc.sql(NEXT_DUE)
			.param("queue", queue)
			.param("horizonMicros", MysqlValues.micros(horizon))
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

	/**
	 * The rows the owner still holds locked first, in id order, then a batch of updates, in one transaction: a JDBC
	 * batch's counts do not say which leases held (MysqlBulkStatementsTest), so the locking read does.
	 */
	@Override
	public Set<Lease> heartbeat(String owner, Collection<Lease> leases, Duration lease) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		return transactions.run(() -> {
			Map<Lease, String> held = lockKept(leases, owner);
			SqlParameterSource[] batch = held.keySet().stream()
				.sorted(Comparator.comparingLong(Lease::jobId))
				.map(kept -> new MapSqlParameterSource().addValue("leaseMicros", MysqlValues.micros(lease))
					.addValue("owner", owner)
					.addValue("id", kept.jobId())
					.addValue("token", kept.token()))
				.toArray(SqlParameterSource[]::new);
			named.batchUpdate("""
					UPDATE jobqueue_job FORCE INDEX (PRIMARY)
					SET lease_expires_at = UTC_TIMESTAMP(6) + INTERVAL :leaseMicros MICROSECOND
					WHERE id = :id AND lease_token = :token AND %s AND lease_owner = :owner""".formatted(
					TRANSITIONS.leaseKept("")), batch);
			// A cancelled job's lease is extended too, but not returned: the heartbeat learns of the cancel from it.
			return held.entrySet().stream()
				.filter(kept -> "running".equals(kept.getValue()))
				.map(Map.Entry::getKey)
				.collect(Collectors.toSet());
		});
	}

	/**
	 * Those of {@code leases} whose job still keeps them ({@link dev.jobqueue.store.TransitionSql#leaseKept}) for
	 * {@code owner}, with their state, locked in id order until the caller's transaction ends.
	 */
	private Map<Lease, String> lockKept(Collection<Lease> leases, String owner) {
		Set<Lease> asked = Set.copyOf(leases);
		return jdbc.sql("""
				SELECT id, lease_token, state FROM jobqueue_job FORCE INDEX (PRIMARY)
				WHERE id IN (:ids) AND %s AND lease_owner = :owner
				ORDER BY id
				FOR UPDATE""".formatted(TRANSITIONS.leaseKept("")))
			.param("ids", leases.stream().map(Lease::jobId).distinct().toList())
			.param("owner", owner)
			.query((rs, n) -> Map.entry(MysqlRows.lease(rs, n), rs.getString("state")))
			.list()
			.stream()
			.filter(kept -> asked.contains(kept.getKey()))
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
	}

	/** Read only when a heartbeat did not extend some leases: rare, and a few rows by primary key. */
	@Override
	public Set<Lease> held(String owner, Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		Set<Lease> held = new HashSet<>(jdbc.sql("""
				SELECT id, lease_token FROM jobqueue_job
				WHERE id IN (:ids) AND state = 'running' AND lease_owner = :owner""")
			.param("ids", leases.stream().map(Lease::jobId).toList())
			.param("owner", owner)
			.query(MysqlRows::lease)
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
				SELECT id, lease_token FROM jobqueue_job WHERE id IN (:ids) AND state = 'cancelled'""")
			.param("ids", leases.stream().map(Lease::jobId).toList())
			.query(MysqlRows::lease)
			.list());
		cancelled.retainAll(Set.copyOf(leases));
		return cancelled;
	}
}
