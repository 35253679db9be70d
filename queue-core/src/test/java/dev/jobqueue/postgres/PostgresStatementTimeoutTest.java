package dev.jobqueue.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;

import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A store made with a statement timeout gives up on a statement that cannot finish, here a confirmation waiting
 * for a row lock another transaction holds, instead of holding its thread while leases run out. The heartbeat does
 * not wait behind such a lock at all: it passes over the row, and the lease is still held.
 */
class PostgresStatementTimeoutTest {

	private static PostgresTestDatabase database;

	private JobStore timed;

	private ClaimedJob job;

	@BeforeAll
	static void openDatabase() {
		database = new PostgresTestDatabase(4);
	}

	@AfterAll
	static void closeDatabase() {
		database.close();
	}

	@BeforeEach
	void claimAJob() {
		database.reset();
		timed = new PostgresDialect().store(database.dataSource(), true, Duration.ofSeconds(1));
		timed.enqueues().enqueue(new NewJob(RuntimeSettings.DEFAULT_QUEUE, "greet", "{}", 1, 5, null, Duration.ZERO, 3, null));
		job = timed.claims().claim(RuntimeSettings.DEFAULT_QUEUE, Map.of("greet", 1), 1, "node-a",
				Duration.ofMinutes(1), false).get(0);
	}

	@Test
	void aConfirmationBlockedByARowLockFailsAfterTheStatementTimeout() throws Exception {
		try (Connection locker = lockTheJobsRow()) {
			CompletableFuture<Void> confirm = CompletableFuture
				.runAsync(() -> timed.claims().confirm("node-a", List.of(job.lease())));

			// Far longer than the timeout, so that only a hang fails this; the lock is held all along.
			assertThatThrownBy(() -> confirm.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
				.cause()
				.isInstanceOf(DataAccessException.class)
				.hasMessageContaining("canceling statement due to user request");
			locker.rollback();
		}
	}

	@Test
	void aHeartbeatPassesOverARowLockedElsewhereAndTheLeaseIsStillHeld() throws Exception {
		try (Connection locker = lockTheJobsRow()) {
			CompletableFuture<Set<Lease>> heartbeat = CompletableFuture
				.supplyAsync(() -> timed.claims().heartbeat("node-a", List.of(job.lease()), Duration.ofMinutes(1)));

			// Well inside the statement timeout: a heartbeat that waited for the lock would fail after it.
			assertThat(heartbeat.get(900, TimeUnit.MILLISECONDS)).isEmpty();
			assertThat(timed.claims().held("node-a", List.of(job.lease()))).containsExactly(job.lease());
			assertThat(timed.claims().held("node-b", List.of(job.lease()))).isEmpty();
			locker.rollback();
		}
		assertThat(timed.claims().heartbeat("node-a", List.of(job.lease()), Duration.ofMinutes(1)))
			.containsExactly(job.lease());
	}

	/** Another transaction's lock on the claimed job's row, held until the connection's transaction ends. */
	private Connection lockTheJobsRow() throws Exception {
		Connection locker = database.dataSource().getConnection();
		locker.setAutoCommit(false);
		try (PreparedStatement lock = locker.prepareStatement("SELECT id FROM jobqueue_job WHERE id = ? FOR UPDATE")) {
			lock.setLong(1, job.id());
			lock.executeQuery().close();
		}
		return locker;
	}
}
