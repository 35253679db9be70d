package dev.jobqueue.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.TableHealth;
import dev.jobqueue.support.PostgresTestDatabase;

/**
 * What holds back the cleanup of the job table: a transaction that keeps a snapshot open shows, by how long it has
 * been open and by how many transactions came after it, until it ends; a VACUUM shows as the time since.
 */
class PostgresTableHealthTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static PostgresTestDatabase database;

	private JobStore store;

	@BeforeEach
	void reset() {
		if (database == null) {
			database = new PostgresTestDatabase();
		}
		database.reset();
		store = database.store();
	}

	@AfterAll
	static void close() {
		if (database != null) {
			database.close();
			database = null;
		}
	}

	@Test
	void aRepeatableReadTransactionHoldsTheXminHorizonUntilItEnds() throws SQLException {
		try (Connection reader = database.dataSource().getConnection()) {
			reader.setAutoCommit(false);
			reader.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
			try (Statement statement = reader.createStatement()) {
				// The first read takes the snapshot, which holds the horizon from then on.
				statement.execute("SELECT count(*) FROM jobqueue_job");
			}
			store.enqueues().enqueue(new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, null, null));

			await().atMost(WAIT).untilAsserted(() -> assertThat(health().xminHeld()).isPositive());
			assertThat(health().xminAge()).isPositive();
			reader.commit();
		}

		assertThat(health().xminHeld()).isZero();
	}

	@Test
	void aVacuumShowsAsTheTimeSinceIt() {
		store.maintenance().vacuumIfBloated(0);

		await().atMost(WAIT).untilAsserted(() -> assertThat(health().sinceVacuum()).hasValueSatisfying(
				since -> assertThat(since).isLessThan(Duration.ofMinutes(1))));
		assertThat(health().deadRows()).isNotNegative();
	}

	private TableHealth health() {
		return store.telemetry().tableHealth().orElseThrow();
	}
}
