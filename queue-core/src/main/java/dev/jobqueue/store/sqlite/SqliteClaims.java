package dev.jobqueue.store.sqlite;

import static dev.jobqueue.store.sqlite.SqliteDialect.TRANSITIONS;

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
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/**
 * A worker's hold on its jobs on SQLite: the claim, its confirmations, the heartbeat and the look-up of cancelled
 * leases, each one statement fenced by the job's lease, as are the outcomes ({@link SqliteOutcomes}).
 * Each statement runs as a transaction of its own: SQLite takes the write lock when a writing statement
 * starts, before it reads a row, so the rows it picks cannot change under it, and a waiting writer
 * waits in the busy handler rather than failing.
 */
final class SqliteClaims implements ClaimStore {

	/** The claim (see {@link #claim}), a constant so that a test can ask for its plan. */
	static final String CLAIM = """
			UPDATE jobqueue_job
			SET state = 'running', attempt = attempt + 1, lease_token = lease_token + 1, lease_owner = :owner,
			    lease_expires_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :leaseMillis,
			    started_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER), claim_confirmed = :confirmed
			WHERE id IN (
			    SELECT id FROM jobqueue_job
			    WHERE state = 'ready' AND queue = :queue AND priority IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
			      AND run_at <= CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
			      AND payload_version <= (SELECT value FROM json_each(:versions) WHERE key = kind)
			      AND NOT EXISTS (SELECT 1 FROM jobqueue_pause WHERE scope = 'queue' AND name = :queue AND paused = 1)
			      AND kind NOT IN (SELECT name FROM jobqueue_pause WHERE scope = 'kind' AND paused = 1)
			    ORDER BY priority, run_at, id
			    LIMIT :limit)
			RETURNING id, queue, kind, payload, payload_version, attempt, max_attempts, priority, lease_token, run_at,
			          started_at, snoozes, concurrency_key, trace_context, has_dependents""";

	/** The next due time (see {@link #nextDueWithin}), a constant so that a test can ask for its plan. */
	static final String NEXT_DUE = """
			WITH priorities (priority) AS (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9))
			SELECT min((SELECT run_at FROM jobqueue_job
			            WHERE state = 'ready' AND queue = :queue AND priority = priorities.priority
			              AND run_at <= CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :horizonMillis
			              AND payload_version <= (SELECT value FROM json_each(:versions) WHERE key = kind)
			              AND kind NOT IN (SELECT name FROM jobqueue_pause WHERE scope = 'kind' AND paused = 1)
			            ORDER BY run_at
			            LIMIT 1)) - CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
			FROM priorities
			WHERE NOT EXISTS (SELECT 1 FROM jobqueue_pause WHERE scope = 'queue' AND name = :queue AND paused = 1)""";

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteClaims(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	@Override
	public List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner,
			Duration lease, boolean confirmed) {
		// One statement under SQLite's single write lock, taken as the statement starts: that lock is what SKIP
		// LOCKED provides on PostgreSQL, as no other writer can pick a row until this one commits. The subquery
		// picks the due rows in claim order from the partial ready index (queue, priority, run_at, id), so
		// LIMIT stops after :limit entries. The list of every priority (0 – 9, the table's check) is what
		// bounds the scan by the due rows: SQLite searches the index once per value of the list, in ascending
		// order, each search from the priority's first entry up to run_at <= now, so the rows come in claim
		// order with no sort. Without it the search is on the queue alone, and run_at, which follows priority
		// in the index, is only a filter: the scan walked past every future job of a priority (delayed jobs,
		// retries in backoff) before it reached the next priority's due ones, under the write lock (decision
		// record 003). Rows of kinds this node
		// does not serve, and rows of a payload version newer than it reads, are passed over, read from the
		// row, as on PostgreSQL: :versions is a JSON object from kind to newest readable version, and a kind
		// that is no key of it finds null, which no version is at or below. The lease token grows at every
		// claim so that writes from any earlier execution are fenced off. Pauses are read in the statement, as
		// on PostgreSQL: the queue's once (a subquery on no column of the row), the paused kinds once into a
		// transient index probed per row.
		List<ClaimedJob> claimed = statements.write("claim", () -> jdbc.sql(CLAIM)
			.param("queue", queue)
			.param("versions", SqliteRows.versionsJson(versions))
			.param("limit", limit)
			.param("owner", owner)
			.param("leaseMillis", lease.toMillis())
			.param("confirmed", confirmed)
			.query(SqliteRows::claimedJob)
			.list());
		// RETURNING gives no order; hand the jobs out in claim order.
		return ClaimOrder.sort(claimed);
	}

	/**
	 * As on PostgreSQL (PostgresClaims.nextDueWithin says why a descent per priority, and why paused jobs
	 * do not count): ten probes of the ready index. A read, so it never takes the write lock nor waits at the write gate.
	 */
	@Override
	public Optional<Duration> nextDueWithin(String queue, Map<String, Integer> versions, Duration horizon) {
		Optional<Long> millis = statements.read("next due", () -> jdbc.sql(NEXT_DUE)
			.param("queue", queue)
			.param("horizonMillis", horizon.toMillis())
			.param("versions", SqliteRows.versionsJson(versions))
			.query((rs, n) -> {
				long due = rs.getLong(1);
				return rs.wasNull() ? Optional.<Long>empty() : Optional.of(due);
			})
			.single());
		// min() over no row is null: nothing due within the horizon.
		return millis.map(Duration::ofMillis);
	}

	/** Sets the confirmation flag only, so that the lease's index is not written. */
	@Override
	public void confirm(String owner, Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return;
		}
		statements.write("confirm", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET claim_confirmed = 1
				FROM json_each(:leases) AS held
				WHERE jobqueue_job.id = held.value ->> 0 AND jobqueue_job.lease_token = held.value ->> 1
				  AND jobqueue_job.state = 'running' AND jobqueue_job.lease_owner = :owner
				  AND jobqueue_job.claim_confirmed = 0""")
			.param("leases", SqliteRows.leasesJson(leases))
			.param("owner", owner)
			.update());
	}

	/** Read through the lease index, whose entries are the running jobs; a job of {@code held} is not touched. */
	@Override
	public void takeBackConfirmations(String owner, String queue, Collection<Lease> held) {
		statements.write("take back confirmations", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET claim_confirmed = 0
				WHERE lease_expires_at IS NOT NULL AND state = 'running' AND lease_owner = :owner AND queue = :queue
				  AND claim_confirmed = 1 AND id NOT IN (SELECT value FROM json_each(:held))""")
			.param("owner", owner)
			.param("queue", queue)
			.param("held", SqliteRows.idsJson(held.stream().map(Lease::jobId).toList()))
			.update());
	}

	/** As {@link #confirm}; pauses are read as the claim reads them. */
	@Override
	public Set<Lease> confirmStarts(String owner, Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		return new HashSet<>(statements.write("confirm starts", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET claim_confirmed = 1
				FROM json_each(:leases) AS held
				WHERE jobqueue_job.id = held.value ->> 0 AND jobqueue_job.lease_token = held.value ->> 1
				  AND jobqueue_job.state = 'running' AND jobqueue_job.lease_owner = :owner
				  AND NOT EXISTS (SELECT 1 FROM jobqueue_pause
				                  WHERE scope = 'queue' AND name = jobqueue_job.queue AND paused = 1)
				  AND jobqueue_job.kind NOT IN (SELECT name FROM jobqueue_pause WHERE scope = 'kind' AND paused = 1)
				RETURNING id, lease_token""")
			.param("leases", SqliteRows.leasesJson(leases))
			.param("owner", owner)
			.query(SqliteRows::lease)
			.list()));
	}

	@Override
	public Set<Lease> heartbeat(String owner, Collection<Lease> leases, Duration lease) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		// A cancelled job's lease is extended too, but not returned: the heartbeat learns of the cancel from it.
		return new HashSet<>(statements.write("heartbeat", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET lease_expires_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :leaseMillis
				FROM json_each(:leases) AS held
				WHERE jobqueue_job.id = held.value ->> 0 AND jobqueue_job.lease_token = held.value ->> 1
				  AND %s AND jobqueue_job.lease_owner = :owner
				RETURNING id, lease_token, state""".formatted(TRANSITIONS.leaseKept("jobqueue_job")))
			.param("leaseMillis", lease.toMillis())
			.param("leases", SqliteRows.leasesJson(leases))
			.param("owner", owner)
			.query((rs, n) -> Map.entry(SqliteRows.lease(rs, n), rs.getString("state")))
			.list()
			.stream()
			.filter(renewed -> "running".equals(renewed.getValue()))
			.map(Map.Entry::getKey)
			.toList()));
	}

	/** Read only when a heartbeat did not extend some leases: rare, and a few rows by primary key. */
	@Override
	public Set<Lease> held(String owner, Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		Set<Lease> held = new HashSet<>(statements.read("held", () -> jdbc.sql("""
				SELECT id, lease_token FROM jobqueue_job
				WHERE id IN (SELECT value ->> 0 FROM json_each(:leases)) AND state = 'running' AND lease_owner = :owner""")
			.param("leases", SqliteRows.leasesJson(leases))
			.param("owner", owner)
			.query(SqliteRows::lease)
			.list()));
		held.retainAll(Set.copyOf(leases));
		return held;
	}

	/** Read only when a heartbeat or an outcome found leases lost: rare, and a few rows by primary key. */
	@Override
	public Set<Lease> cancelled(Collection<Lease> leases) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		Set<Lease> cancelled = new HashSet<>(statements.read("cancelled", () -> jdbc.sql("""
				SELECT id, lease_token FROM jobqueue_job
				WHERE id IN (SELECT value ->> 0 FROM json_each(:leases)) AND state = 'cancelled'""")
			.param("leases", SqliteRows.leasesJson(leases))
			.query(SqliteRows::lease)
			.list()));
		cancelled.retainAll(Set.copyOf(leases));
		return cancelled;
	}
}
