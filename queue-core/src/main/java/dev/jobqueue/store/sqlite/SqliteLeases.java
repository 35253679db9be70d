package dev.jobqueue.store.sqlite;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job.AttemptError;
import dev.jobqueue.store.ClaimOrder;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.ErrorHistory;
import dev.jobqueue.store.Lease;

/**
 * Claim and every write about a running job on SQLite, each one statement fenced by the job's lease.
 * Each statement runs as a transaction of its own: SQLite takes the write lock when a writing statement
 * starts, before it reads a row, so the rows it picks cannot change under it, and a waiting writer
 * waits in the busy handler rather than failing.
 */
final class SqliteLeases {

	/** The claim (see {@link #claim}), a constant so that a test can ask for its plan. */
	static final String CLAIM = """
			UPDATE jobqueue_job
			SET state = 'running', attempt = attempt + 1, lease_token = lease_token + 1, lease_owner = :owner,
			    lease_expires_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :leaseMillis,
			    started_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER), claim_confirmed = 0
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
			          started_at, snoozes, concurrency_key, trace_context""";

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

	SqliteLeases(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner, Duration lease) {
		// One statement under SQLite's single write lock, taken as the statement starts: that lock is what SKIP
		// LOCKED provides on PostgreSQL, as no other writer can pick a row until this one commits. The subquery
		// picks the due rows in claim order from the partial ready index (queue, priority, run_at, id), so
		// LIMIT stops after :limit entries. The list of every priority (0 – 9, the table's check) is what
		// bounds the scan by the due rows: SQLite searches the index once per value of the list, in ascending
		// order, each search from the priority's first entry up to run_at <= now, so the rows come in claim
		// order with no sort. Without it the search is on the queue alone, and run_at, which follows priority
		// in the index, is only a filter: the scan walked past every future job of a priority (delayed jobs,
		// retries in backoff) before it reached the next priority's due ones, 16 – 22 ms with 200,000 of them
		// under the write lock, for an idle claim (docs/architecture.md, Decisions). Rows of kinds this node
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
			.query(SqliteRows::claimedJob)
			.list());
		// RETURNING gives no order; hand the jobs out in claim order.
		return ClaimOrder.sort(claimed);
	}

	/**
	 * As on PostgreSQL (PostgresExecution.nextDueWithin says why a descent per priority, and why paused jobs
	 * do not count): ten probes of the ready index. A read, so it never takes the write lock nor waits at the write gate.
	 */
	Optional<Duration> nextDueWithin(String queue, Map<String, Integer> versions, Duration horizon) {
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

	/** A succeeded job has no current error; an earlier attempt's stays in the error history. */
	boolean complete(Lease lease, String resultJson) {
		return statements.write("complete", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'succeeded', result = :result,
				    finished_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER),
				    lease_owner = NULL, lease_expires_at = NULL, last_error = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""")
			.param("result", resultJson)
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update()) == 1;
	}

	Set<Lease> completeAll(Collection<Completion> completions) {
		if (completions.isEmpty()) {
			return Set.of();
		}
		// The batch travels as one JSON array of [id, token, result] that json_each turns into rows, as
		// unnest of arrays does on PostgreSQL; ->> 2 reads the result back as the JSON text it holds.
		List<Lease> written = statements.write("complete all", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'succeeded', result = done.value ->> 2,
				    finished_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER),
				    lease_owner = NULL, lease_expires_at = NULL, last_error = NULL
				FROM json_each(:completions) AS done
				WHERE jobqueue_job.id = done.value ->> 0 AND jobqueue_job.lease_token = done.value ->> 1
				  AND jobqueue_job.state = 'running'
				RETURNING id, lease_token""")
			.param("completions", SqliteRows.completionsJson(completions))
			.query(SqliteRows::lease)
			.list());
		Set<Lease> lost = new HashSet<>();
		completions.forEach(c -> lost.add(c.lease()));
		written.forEach(lost::remove);
		return lost;
	}

	/**
	 * The failure's entry goes on the end of the error history, the oldest dropped once it is full (see
	 * {@link ErrorHistory}); its time is ISO-8601 text, as PostgreSQL writes it.
	 */
	boolean retryLater(Lease lease, Duration delay, String error) {
		return statements.write("retry", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = CASE WHEN concurrency_rate_millis IS NULL THEN 'ready' ELSE 'blocked' END,
				    run_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :delayMillis,
				    last_error = :error,
				    errors = json_insert(CASE WHEN json_array_length(errors) >= :maxEntries
				                              THEN json_remove(errors, '$[0]') ELSE errors END,
				                         '$[#]', json_object('attempt', attempt,
				                                             'at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
				                                             'worker', lease_owner, 'message', :entry)),
				    lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""")
			.param("delayMillis", delay.toMillis())
			.param("error", error)
			.param("maxEntries", AttemptError.MAX_ENTRIES)
			.param("entry", ErrorHistory.entry(error))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update()) == 1;
	}

	/** Like {@link #retryLater}: an entry on the error history. */
	boolean fail(Lease lease, String error) {
		return statements.write("fail", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'dead', last_error = :error, finished_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER),
				    errors = json_insert(CASE WHEN json_array_length(errors) >= :maxEntries
				                              THEN json_remove(errors, '$[0]') ELSE errors END,
				                         '$[#]', json_object('attempt', attempt,
				                                             'at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
				                                             'worker', lease_owner, 'message', :entry)),
				    lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""")
			.param("error", error)
			.param("maxEntries", AttemptError.MAX_ENTRIES)
			.param("entry", ErrorHistory.entry(error))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update()) == 1;
	}

	boolean release(Lease lease) {
		// The attempt is given back once per job (V4), so that a job interrupted at every deploy reaches dead.
		return statements.write("release", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = CASE WHEN concurrency_rate_millis IS NULL THEN 'ready' ELSE 'blocked' END,
				    attempt = attempt - 1, attempt_given_back = 1, lease_owner = NULL,
				    lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running' AND attempt_given_back = 0""")
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update()) == 1;
	}

	/** Sets the confirmation flag only, so that the lease's index is not written, unlike the heartbeat's. */
	void confirm(String owner, Collection<Lease> leases) {
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

	Set<Lease> heartbeat(String owner, Collection<Lease> leases, Duration lease) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		return new HashSet<>(statements.write("heartbeat", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET lease_expires_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :leaseMillis,
				    claim_confirmed = 1
				FROM json_each(:leases) AS held
				WHERE jobqueue_job.id = held.value ->> 0 AND jobqueue_job.lease_token = held.value ->> 1
				  AND jobqueue_job.state = 'running' AND jobqueue_job.lease_owner = :owner
				RETURNING id, lease_token""")
			.param("leaseMillis", lease.toMillis())
			.param("leases", SqliteRows.leasesJson(leases))
			.param("owner", owner)
			.query(SqliteRows::lease)
			.list()));
	}
}
