package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.FaultWorkerApplication;
import dev.jobqueue.faults.app.Probe;

/**
 * The invariants catch what they are meant to: each case below breaks one of them by hand, in SQL, where
 * a faulty queue would have, and the check must fail naming it. On every database, like the invariants.
 */
abstract class InvariantsTest extends FaultScenario {
	private static final String OWNER = "4242@fault-host/abcd1234";

	private long job;

	@BeforeEach
	void enqueueAndClaimOneJob() {
		job = enqueue(1, "probe", 3, i -> Probe.sleeping(0)).get(0);
		update("""
				UPDATE jobqueue_job SET state = 'running', attempt = attempt + 1, lease_token = lease_token + 1,
				       lease_owner = :owner, lease_expires_at = :expires WHERE id = :id""");
	}

	@Test
	void aJobCompletedByItsLeaseHolderPasses() {
		asLeaseHolder("UPDATE jobqueue_job SET state = 'succeeded', lease_owner = NULL, lease_expires_at = NULL WHERE id = :id");

		assertThatNoException().isThrownBy(() -> check(List.of()));
	}

	@Test
	void aJobLeftReadyIsALoss() {
		asLeaseHolder("UPDATE jobqueue_job SET state = 'ready', lease_owner = NULL, lease_expires_at = NULL WHERE id = :id");

		assertFails("I1: jobs that did not end succeeded or dead");
	}

	@Test
	void aSecondCompletionBreaksSingleCompletion() {
		asLeaseHolder("UPDATE jobqueue_job SET state = 'succeeded', lease_owner = NULL, lease_expires_at = NULL WHERE id = :id");
		asLeaseHolder("UPDATE jobqueue_job SET state = 'running', lease_owner = :owner WHERE id = :id");
		asLeaseHolder("UPDATE jobqueue_job SET state = 'succeeded', lease_owner = NULL WHERE id = :id");

		assertFails("I2: jobs completed more than once");
	}

	@Test
	void aCompletionByAProcessThatDoesNotHoldTheLeaseIsAWriteUnderASupersededLease() {
		update("UPDATE jobqueue_job SET state = 'succeeded', lease_owner = NULL, lease_expires_at = NULL WHERE id = :id");

		assertFails("I5: writes to a running job by a process that did not hold its lease");
	}

	@Test
	void anAttemptBeyondMaxAttemptsIsCaught() {
		asLeaseHolder("UPDATE jobqueue_job SET state = 'dead', attempt = 4, lease_owner = NULL WHERE id = :id");

		assertFails("I4: attempts beyond max attempts");
	}

	@Test
	void aReapOfAProcessThatWasNotFaultedIsAnUnexplainedDuplicate() {
		// The error first: MySQL assigns left to right, each assignment seeing the ones before it.
		update("""
				UPDATE jobqueue_job SET last_error = 'lease expired on ' || lease_owner || ' at ' || lease_expires_at,
				       state = 'ready', lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id""");
		update("UPDATE jobqueue_job SET lease_expires_at = :expired WHERE id = :id");
		asLeaseHolder("UPDATE jobqueue_job SET state = 'succeeded' WHERE id = :id");

		assertFails("I3: jobs re-started after a reap or release");
	}

	@Test
	void aRunningJobWithAnExpiredLeaseIsStuck() {
		asLeaseHolder("UPDATE jobqueue_job SET lease_expires_at = :expired WHERE id = :id");

		assertFails("I6: running jobs whose lease expired");
	}

	private void check(List<Long> faultedPids) {
		new Invariants(database).check(1, faultedPids);
	}

	private void assertFails(String invariant) {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> check(List.of()))
			.withMessageContaining(invariant);
	}

	/** Runs {@code sql} as the lease holder's process would: the audit names it as the writer. */
	private void asLeaseHolder(String sql) {
		database.writeAs(FaultWorkerApplication.applicationName(4242), () -> update(sql));
	}

	/** Binds what the statements name: the job, its owner, a lease expiry ahead and one past. */
	private void update(String sql) {
		Instant now = Instant.now();
		database.jdbc()
			.sql(sql)
			.params(Map.of("id", job, "owner", OWNER, "expires", database.time(now.plus(Duration.ofMinutes(1))),
					"expired", database.time(now.minus(Duration.ofMinutes(1)))))
			.update();
	}
}
