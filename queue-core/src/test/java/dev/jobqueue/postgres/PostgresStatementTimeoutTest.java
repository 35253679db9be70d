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

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A store made with a statement timeout gives up on a statement that cannot finish, here a heartbeat
 * waiting for a row lock another transaction holds, instead of holding its thread while leases run out.
 */
class PostgresStatementTimeoutTest {

	private static PostgresTestDatabase database;

	@BeforeAll
	static void openDatabase() {
		database = new PostgresTestDatabase(4);
	}

	@AfterAll
	static void closeDatabase() {
		database.close();
	}

	@BeforeEach
	void empty() {
		database.reset();
	}

	@Test
	void aHeartbeatBlockedByARowLockFailsAfterTheStatementTimeout() throws Exception {
		JobStore timed = new PostgresDialect().store(database.dataSource(), true, Duration.ofSeconds(1));
		timed.enqueues().enqueue(new NewJob(RuntimeSettings.DEFAULT_QUEUE, "greet", "{}", 1, 5, null, Duration.ZERO, 3, null));
		ClaimedJob job = timed.claims().claim(RuntimeSettings.DEFAULT_QUEUE, Map.of("greet", 1), 1, "node-a",
				Duration.ofMinutes(1)).get(0);

		try (Connection locker = database.dataSource().getConnection()) {
			locker.setAutoCommit(false);
			try (PreparedStatement lock = locker.prepareStatement("SELECT id FROM jobqueue_job WHERE id = ? FOR UPDATE")) {
				lock.setLong(1, job.id());
				lock.executeQuery().close();
			}
			CompletableFuture<Set<Lease>> heartbeat = CompletableFuture
				.supplyAsync(() -> timed.claims().heartbeat("node-a", List.of(job.lease()), Duration.ofMinutes(1)));

			// Far longer than the timeout, so that only a hang fails this; the lock is held all along.
			assertThatThrownBy(() -> heartbeat.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
				.cause()
				.isInstanceOf(DataAccessException.class)
				.hasMessageContaining("canceling statement due to user request");
			locker.rollback();
		}
	}
}
