package dev.jobqueue.store.sqlite;

import static dev.jobqueue.store.sqlite.SqliteDialect.TRANSITIONS;

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
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/**
 * The writes that end an execution on SQLite (success, retry, snooze, death, release, hand-back), each one
 * statement fenced by the job's lease.
 * Each statement runs as a transaction of its own: SQLite takes the write lock when a writing statement
 * starts, before it reads a row, so the rows it picks cannot change under it, and a waiting writer
 * waits in the busy handler rather than failing.
 */
final class SqliteOutcomes implements OutcomeStore {

	private static final String BACK = TRANSITIONS.backFromRunning("");

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteOutcomes(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	/** A succeeded job has no current error; an earlier attempt's stays in the error history. */
	@Override
	public boolean complete(Lease lease, String resultJson) {
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

	@Override
	public Set<Lease> completeAll(Collection<Completion> completions) {
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

	/** The failure's entry goes on the end of the error history ({@link #appendError}). */
	@Override
	public boolean retryLater(Lease lease, Duration delay, String error) {
		return statements.write("retry", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = %s,
				    run_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :delayMillis,
				    last_error = :error, errors = %s,
				    lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""".formatted(BACK, appendError(":entry")))
			.param("delayMillis", delay.toMillis())
			.param("error", error)
			.param("maxEntries", AttemptError.MAX_ENTRIES)
			.param("entry", ErrorHistory.entry(error))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update()) == 1;
	}

	/** Fenced like every outcome; the attempt is given back, so that it does not count. */
	@Override
	public boolean snooze(Lease lease, Duration delay) {
		return statements.write("snooze", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = %s,
				    run_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :delayMillis,
				    attempt = attempt - 1, snoozes = snoozes + 1, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""".formatted(BACK))
			.param("delayMillis", delay.toMillis())
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update()) == 1;
	}

	/** Like {@link #retryLater}: an entry on the error history. */
	@Override
	public boolean fail(Lease lease, String error) {
		return end("fail", lease, JobState.dead, error);
	}

	@Override
	public boolean cancelByHandler(Lease lease, String reason) {
		return end("cancel by handler", lease, JobState.cancelled, reason);
	}

	/** running → {@code state}, finished, the error on the history, the lease let go. */
	private boolean end(String operation, Lease lease, JobState state, String error) {
		return statements.write(operation, () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = :state, last_error = :error, finished_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER),
				    errors = %s, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""".formatted(appendError(":entry")))
			.param("state", state.name())
			.param("error", error)
			.param("maxEntries", AttemptError.MAX_ENTRIES)
			.param("entry", ErrorHistory.entry(error))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update()) == 1;
	}

	/**
	 * The SQL of the error history with an entry for this attempt on its end, the oldest dropped once it is full
	 * (see {@link ErrorHistory}); the entry's time is ISO-8601 text, as PostgreSQL writes it.
	 */
	static String appendError(String message) {
		return """
				json_insert(CASE WHEN json_array_length(errors) >= :maxEntries THEN json_remove(errors, '$[0]')
				                 ELSE errors END,
				            '$[#]', json_object('attempt', attempt, 'at', strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', 'now'),
				                                'worker', lease_owner, 'message', %s))""".formatted(message);
	}

	@Override
	public boolean release(Lease lease) {
		// The attempt is given back once per job (V4), so that a job interrupted at every deploy reaches dead.
		return statements.write("release", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = %s, attempt = attempt - 1, attempt_given_back = 1, lease_owner = NULL,
				    lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running' AND %s""".formatted(BACK,
				TRANSITIONS.releasable("")))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update()) == 1;
	}

	/** As {@link #release}, without the once-per-job flag: the handler never started. */
	@Override
	public boolean handBack(Lease lease) {
		return statements.write("hand back", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = %s, attempt = attempt - 1, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""".formatted(BACK))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update()) == 1;
	}

	@Override
	public boolean endCancelled(Lease lease) {
		return statements.write("end cancelled", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND %s""".formatted(TRANSITIONS.cancelledWithLease("")))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update()) == 1;
	}
}
