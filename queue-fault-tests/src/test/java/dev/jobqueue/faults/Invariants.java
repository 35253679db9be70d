package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Collection;
import java.util.List;

import org.assertj.core.api.SoftAssertions;
import org.springframework.jdbc.core.simple.JdbcClient;


/**
 * The queue's invariants, checked in SQL over the jobs table and the audit its trigger wrote, once the
 * faults of a scenario have stopped and the queue has drained:
 * <ul>
 * <li>I1 no loss: every committed job ends succeeded or dead, and none vanished;
 * <li>I2 single completion: one transition into succeeded per succeeded job, none out of it;
 * <li>I3 bounded duplicates: a job starts again only after a reap or a release of an execution that ran
 * in a faulted process ({@code faultedPids}), or after a failure it was retried for;
 * <li>I4 attempts never exceed max attempts; dead means exhausted or non-retryable;
 * <li>I5 no write under a superseded lease: a running job is written only by its lease holder's process,
 * or by a reaper once its lease expired; the token changes only at a claim, by one;
 * <li>I6 no job is left running with an expired lease.
 * </ul>
 * The SQL is the same on every database: the audit has the same columns everywhere, and the one time
 * compared (now, for I6) is bound in the database's own representation.
 */
final class Invariants {

	private final FaultDatabase database;

	private final JdbcClient jdbc;

	Invariants(FaultDatabase database) {
		this.database = database;
		this.jdbc = database.jdbc();
	}

	/** Checks I1–I6 over every job in the table; {@code faultedPids} are the processes the scenario faulted. */
	Report check(long expectedJobs, Collection<Long> faultedPids) {
		SoftAssertions soft = new SoftAssertions();
		noLoss(soft, expectedJobs);
		singleCompletion(soft);
		Report report = report();
		soft.assertThat(restartsAfterUnfaultedProcesses(faultedPids)).as("I3: jobs re-started after a reap or release "
				+ "of an execution on a process that was not faulted").isEmpty();
		attemptsBounded(soft);
		soft.assertThat(list("""
				SELECT seq || ': job ' || job_id || ' written by ' || writer || ' while leased to ' || old_owner
				FROM fault_audit
				WHERE old_state = 'running'
				  AND NOT (new_owner IS NULL AND error LIKE 'lease expired on % at %' AND old_expires < at)
				  AND NOT (('fault-worker-' || old_owner) LIKE (writer || '@%'))""")).as("I5: writes to a running job by "
				+ "a process that did not hold its lease").isEmpty();
		soft.assertThat(list("""
				SELECT seq || ': job ' || job_id || ' token ' || old_token || ' -> ' || new_token FROM fault_audit
				WHERE old_state IS NOT NULL AND new_token <> old_token
				  AND NOT (old_state = 'ready' AND new_state = 'running' AND new_token = old_token + 1)""")).as("I5: lease "
				+ "tokens that changed other than by one at a claim").isEmpty();
		soft.assertThat(jdbc.sql("""
				SELECT id || ' leased to ' || lease_owner || ' until ' || lease_expires_at FROM jobqueue_job
				WHERE state = 'running' AND lease_expires_at < :now""")
			.param("now", database.time(Instant.now()))
			.query(String.class)
			.list()).as("I6: running jobs whose lease expired").isEmpty();
		soft.assertAll();
		return report;
	}

	private void noLoss(SoftAssertions soft, long expectedJobs) {
		soft.assertThat(count("SELECT count(*) FROM jobqueue_job")).as("I1: jobs in the table").isEqualTo(expectedJobs);
		soft.assertThat(count("SELECT count(DISTINCT job_id) FROM fault_audit WHERE old_state IS NULL"))
			.as("I1: jobs ever inserted").isEqualTo(expectedJobs);
		soft.assertThat(list("SELECT id || ' is ' || state FROM jobqueue_job WHERE state NOT IN ('succeeded', 'dead')"))
			.as("I1: jobs that did not end succeeded or dead").isEmpty();
	}

	private void singleCompletion(SoftAssertions soft) {
		soft.assertThat(list("""
				SELECT job_id || ' completed ' || count(*) || ' times' FROM fault_audit
				WHERE new_state = 'succeeded' AND (old_state IS NULL OR old_state <> 'succeeded')
				GROUP BY job_id HAVING count(*) > 1""")).as("I2: jobs completed more than once").isEmpty();
		soft.assertThat(list("""
				SELECT seq || ': job ' || job_id || ' ' || old_state || ' -> ' || new_state FROM fault_audit
				WHERE old_state IN ('succeeded', 'dead') AND new_state <> old_state""")).as("I2: transitions out of a "
				+ "finished state").isEmpty();
		soft.assertThat(list("""
				SELECT j.id || '' FROM jobqueue_job j
				WHERE j.state = 'succeeded' AND NOT EXISTS (
				    SELECT 1 FROM fault_audit a WHERE a.job_id = j.id AND a.new_state = 'succeeded'
				                                AND a.old_state = 'running')""")).as("I2: succeeded jobs without "
				+ "their completion in the audit").isEmpty();
	}

	private void attemptsBounded(SoftAssertions soft) {
		soft.assertThat(list("SELECT seq || ': job ' || job_id || ' attempt ' || new_attempt || ' of ' || max_attempts "
				+ "FROM fault_audit WHERE new_attempt > max_attempts")).as("I4: attempts beyond max attempts").isEmpty();
		soft.assertThat(list("""
				SELECT id || ' dead after ' || attempt || ' of ' || max_attempts || ': '
				       || coalesce(substr(last_error, 1, 120), '')
				FROM jobqueue_job
				WHERE state = 'dead' AND attempt < max_attempts AND last_error NOT LIKE '%NonRetryableException%'"""))
			.as("I4: dead jobs neither exhausted nor non-retryable").isEmpty();
	}

	/** Re-claims that followed a reap or a release of an execution leased to a process that was not faulted. */
	private List<String> restartsAfterUnfaultedProcesses(Collection<Long> faultedPids) {
		return jdbc.sql("""
				SELECT seq || ': job ' || job_id || ' given back from ' || old_owner AS line, old_owner FROM fault_audit
				WHERE old_state = 'running' AND new_state = 'ready'
				  AND (error LIKE 'lease expired on % at %' OR new_attempt = old_attempt - 1)""")
			.query((row, n) -> new GivenBack(row.getString("line"), ownerPid(row.getString("old_owner"))))
			.list()
			.stream()
			.filter(back -> !faultedPids.contains(back.pid()))
			.map(GivenBack::line)
			.toList();
	}

	private record GivenBack(String line, long pid) {
	}

	/** A lease owner is {@code <pid>@<host>/<runtime>}. */
	private static long ownerPid(String owner) {
		return Long.parseLong(owner.substring(0, owner.indexOf('@')));
	}

	private Report report() {
		return new Report(count("SELECT count(*) FROM jobqueue_job WHERE state = 'succeeded'"),
				count("SELECT count(*) FROM jobqueue_job WHERE state = 'dead'"),
				count("SELECT count(*) FROM fault_audit WHERE old_state = 'ready' AND new_state = 'running'"),
				count("""
						SELECT count(*) FROM fault_audit WHERE old_state = 'running' AND new_state IN ('ready', 'dead')
						  AND error LIKE 'lease expired on % at %' AND new_owner IS NULL"""),
				count("""
						SELECT count(*) FROM fault_audit WHERE old_state = 'running' AND new_state = 'ready'
						  AND new_attempt = old_attempt - 1
						  AND (error IS NULL OR error NOT LIKE '% before its worker confirmed the claim')"""));
	}

	private long count(String sql) {
		return jdbc.sql(sql).query(Long.class).single();
	}

	private List<String> list(String sql) {
		return jdbc.sql(sql).query(String.class).list();
	}

	/**
	 * What a scenario's drain came to.
	 *
	 * @param claims every start of an execution (ready → running)
	 * @param reaped executions given back by a reaper after their lease expired (I3's duplicates)
	 * @param released executions given back at a graceful shutdown
	 */
	record Report(long succeeded, long dead, long claims, long reaped, long released) {

		/** Starts beyond one per job that were not planned retries: executions run again after a fault. */
		long duplicates() {
			return reaped + released;
		}

		void assertSucceeded(long jobs) {
			assertThat(succeeded).as("succeeded jobs").isEqualTo(jobs);
		}

		@Override
		public String toString() {
			return "succeeded=" + succeeded + " dead=" + dead + " claims=" + claims + " reaped=" + reaped
					+ " released=" + released;
		}
	}
}
