package dev.jobqueue.mysql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.dao.DataAccessException;

import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.mysql.MysqlDialect;
import dev.jobqueue.store.mysql.support.MysqlClaimMethod;
import dev.jobqueue.support.MysqlTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A store made with a statement timeout gives up on a statement that cannot finish, here a heartbeat waiting for a
 * row lock another transaction holds, long before InnoDB's own lock wait timeout (50 s by default): through both
 * drivers, MariaDB Connector/J's {@code max_statement_time} and MySQL Connector/J's {@code KILL QUERY}.
 */
class MysqlStatementTimeoutTest {

	static List<String> urls() {
		return List.of(MysqlTestDatabase.url(), MysqlTestDatabase.otherDriverUrl());
	}

	@ParameterizedTest
	@MethodSource("urls")
	void aHeartbeatBlockedByARowLockFailsAfterTheStatementTimeout(String url) throws Exception {
		try (MysqlTestDatabase database = new MysqlTestDatabase(url, 4, null)) {
			database.reset();
			JobStore timed = MysqlDialect.jobStore(database.dataSource(), Duration.ofSeconds(1),
					MysqlClaimMethod.SKIP_LOCKED);
			timed.enqueues().enqueue(new NewJob(RuntimeSettings.DEFAULT_QUEUE, "greet", "{}", 1, 5, null, Duration.ZERO, 3, null,
					null));
			ClaimedJob job = timed.claims().claim(RuntimeSettings.DEFAULT_QUEUE, Map.of("greet", 1), 1, "node-a",
					Duration.ofMinutes(1), false).get(0);

			try (Connection locker = database.dataSource().getConnection()) {
				locker.setAutoCommit(false);
				try (PreparedStatement lock = locker.prepareStatement("SELECT id FROM jobqueue_job WHERE id = ? FOR UPDATE")) {
					lock.setLong(1, job.id());
					lock.executeQuery().close();
				}
				long start = System.nanoTime();
				CompletableFuture<Set<Lease>> heartbeat = CompletableFuture
					.supplyAsync(() -> timed.claims().heartbeat("node-a", List.of(job.lease()), Duration.ofMinutes(1)));

				// Far shorter than InnoDB's lock wait timeout, so that only the statement timeout passes this.
				assertThatThrownBy(() -> heartbeat.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
					.cause()
					.isInstanceOf(DataAccessException.class);
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
				locker.rollback();
			}
		}
	}
}
