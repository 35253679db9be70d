package dev.jobqueue.store.mysql;

import static dev.jobqueue.store.mysql.MysqlDialect.TRANSITIONS;

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
import dev.jobqueue.store.mysql.support.MysqlValues;

/**
 * The writes that end an execution on MySQL (success, retry, snooze, death, release, hand-back); the claim, its
 * confirmations and the heartbeat are {@link MysqlClaims}'. Each is fenced by the job's lease: by id (the primary key,
 * whose equality locks the one row at any isolation) and lease token.
 *
 * <p>Lock order: the batched completion and the heartbeat lock their rows in id order (the completion's one update
 * walks the primary key's ranges of its id list in order; the heartbeat reads them locking, in id order, before its
 * JDBC batch, in one transaction), so two of them over the same rows queue up instead of deadlocking; the reaper
 * locks as the heartbeat does. The claim never waits for a lock (SKIP LOCKED, or single-row compare-and-set); the
 * other writes touch one row.
 *
 * <p>Every fenced update names its row by primary key and says {@code FORCE INDEX (PRIMARY)}: MariaDB's optimizer,
 * finding that the reaper's {@code lease_expires_at < now} matched almost no entry of the lease index (dropped since,
 * V28), planned the update as a range of that index, which locks the index entry before the row, while a completion
 * of the same row locks the row first and then the entry it changes; the two deadlocked (MysqlOtherDriverClaimTest,
 * aCompletionRacingTheReaperIsNeverUndone). Through the primary key every write locks the row first, whatever
 * secondary index a condition could be read from.
 *
 * <p>MySQL runs the assignments of an UPDATE left to right, each seeing the ones before it: the error history's
 * entry, which reads the attempt and the lease owner, is written before they change.
 */
final class MysqlOutcomes implements OutcomeStore {

	private static final String BACK = TRANSITIONS.backFromRunning("");

	private final JdbcClient jdbc;

	MysqlOutcomes(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** A succeeded job has no current error; an earlier attempt's stays in the error history. */
	@Override
	public boolean complete(Lease lease, String resultJson) {
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET state = 'succeeded', result = :result, finished_at = UTC_TIMESTAMP(6), lease_owner = NULL,
				    lease_expires_at = NULL, last_error = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""")
			.param("result", resultJson)
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	/**
	 * One fenced update in auto-commit, each row with its own result: ELT picks, for the row's id and token, the
	 * result at their position in the list FIELD searches (by both, since a batch may hold a stale lease of a job
	 * beside its current one). It locks its rows through the primary key in id order, as the heartbeat and the
	 * reaper do, so the three queue up rather than deadlock. MySQL's UPDATE returns no rows, only how many it
	 * matched: when that is every lease, none was lost, which is nearly always so; otherwise a read says which rows
	 * it finished (see {@link #finishedBy}). A locking read, the update and the commit in a transaction of our own
	 * were six statements per batch, the auto-commit and isolation ones included.
	 */
	@Override
	public Set<Lease> completeAll(Collection<Completion> completions) {
		if (completions.isEmpty()) {
			return Set.of();
		}
		List<Lease> leases = completions.stream().map(Completion::lease).toList();
		int finished = jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET state = 'succeeded', result = ELT(FIELD(CONCAT(id, ' ', lease_token), :keys), :results),
				    finished_at = UTC_TIMESTAMP(6), lease_owner = NULL, lease_expires_at = NULL, last_error = NULL
				WHERE id IN (:ids) AND (id, lease_token) IN (:leases) AND state = 'running'""")
			.param("keys", leases.stream().map(lease -> lease.jobId() + " " + lease.token()).toList())
			.param("ids", leases.stream().map(Lease::jobId).toList())
			.param("results", completions.stream().map(Completion::result).toList())
			.param("leases", leases.stream().map(lease -> new Object[] { lease.jobId(), lease.token() }).toList())
			.update();
		if (finished == leases.size()) {
			return Set.of();
		}
		Set<Lease> lost = new HashSet<>(leases);
		lost.removeAll(finishedBy(leases));
		return lost;
	}

	/**
	 * Those of {@code leases} whose job succeeded under them: only their holder can finish a job with its token
	 * (a claim takes a new one), so these are the ones the update wrote. A job the pruner deleted since counts as
	 * lost, which only a retention shorter than the batch's own flush could bring about.
	 */
	private Set<Lease> finishedBy(List<Lease> leases) {
		Set<Lease> finished = new HashSet<>(jdbc.sql("""
				SELECT id, lease_token FROM jobqueue_job FORCE INDEX (PRIMARY)
				WHERE id IN (:ids) AND state = 'succeeded'""")
			.param("ids", leases.stream().map(Lease::jobId).toList())
			.query(MysqlRows::lease)
			.list());
		finished.retainAll(Set.copyOf(leases));
		return finished;
	}

	/**
	 * The failure's entry goes on the end of the error history ({@link #appendError}). MySQL assigns left to right,
	 * so the entry is made first, from the attempt and owner the row had.
	 */
	@Override
	public boolean retryLater(Lease lease, Duration delay, String error) {
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET errors = %s, state = %s,
				    run_at = UTC_TIMESTAMP(6) + INTERVAL :delayMicros MICROSECOND, last_error = :error,
				    lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""".formatted(appendError(":entry"), BACK))
			.param("maxEntries", AttemptError.MAX_ENTRIES)
			.param("entry", ErrorHistory.entry(error))
			.param("delayMicros", MysqlValues.micros(delay))
			.param("error", error)
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	/** Fenced like every outcome; the attempt is given back, so that it does not count. */
	@Override
	public boolean snooze(Lease lease, Duration delay) {
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET state = %s,
				    run_at = UTC_TIMESTAMP(6) + INTERVAL :delayMicros MICROSECOND, attempt = attempt - 1,
				    snoozes = snoozes + 1, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""".formatted(BACK))
			.param("delayMicros", MysqlValues.micros(delay))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	/** Like {@link #retryLater}: an entry on the error history. */
	@Override
	public boolean fail(Lease lease, String error) {
		return end(lease, JobState.dead, error);
	}

	@Override
	public boolean cancelByHandler(Lease lease, String reason) {
		return end(lease, JobState.cancelled, reason);
	}

	/** running → {@code state}, finished, the error on the history (written first: it reads the lease's owner). */
	private boolean end(Lease lease, JobState state, String error) {
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET errors = %s, state = :state, last_error = :error, finished_at = UTC_TIMESTAMP(6),
				    lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""".formatted(appendError(":entry")))
			.param("state", state.name())
			.param("maxEntries", AttemptError.MAX_ENTRIES)
			.param("entry", ErrorHistory.entry(error))
			.param("error", error)
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	/**
	 * The SQL of the error history with an entry for this attempt on its end, the oldest dropped once it is full
	 * (see {@link ErrorHistory}); the entry's time is ISO-8601 text in UTC, as the other databases write it.
	 */
	static String appendError(String message) {
		return """
				JSON_ARRAY_APPEND(CASE WHEN JSON_LENGTH(errors) >= :maxEntries THEN JSON_REMOVE(errors, '$[0]')
				                       ELSE errors END,
				                  '$', JSON_OBJECT('attempt', attempt,
				                                   'at', DATE_FORMAT(UTC_TIMESTAMP(6), '%%Y-%%m-%%dT%%H:%%i:%%s.%%fZ'),
				                                   'worker', lease_owner, 'message', %s))""".formatted(message);
	}

	@Override
	public boolean release(Lease lease) {
		// The attempt is given back once per job (V4 elsewhere), so that a job interrupted at every deploy reaches dead.
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET state = %s,
				    attempt = attempt - 1, attempt_given_back = TRUE, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running' AND %s""".formatted(BACK,
				TRANSITIONS.releasable("")))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	/** As {@link #release}, without the once-per-job flag: the handler never started. */
	@Override
	public boolean handBack(Lease lease) {
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET state = %s, attempt = attempt - 1, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""".formatted(BACK))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	@Override
	public boolean endCancelled(Lease lease) {
		return jdbc.sql("""
				UPDATE jobqueue_job FORCE INDEX (PRIMARY)
				SET lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND %s""".formatted(TRANSITIONS.cancelledWithLease("")))
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}
}
