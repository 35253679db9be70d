package dev.jobqueue.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import ch.qos.logback.classic.Level;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.LogCapture;
import dev.jobqueue.support.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** Where and when the store's VACUUM runs: never in the caller's transaction, never queued, never unpermitted. */
class PostgresVacuumTest {

	private static final String NOT_OWNER = "jobqueue_vacuum_test_not_owner";

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
	void emptyTable() {
		database.reset();
	}

	@Test
	void aVacuumAskedForInsideACallersTransactionRunsOnItsOwnConnectionAndLeavesTheTransactionAlone() {
		long vacuums = vacuumCount();
		TransactionTemplate transactions = new TransactionTemplate(new JdbcTransactionManager(database.dataSource()));

		boolean vacuumed = transactions.execute(status -> {
			database.store().enqueues().enqueue(job());
			boolean result = database.store().maintenance().vacuumIfBloated(0);
			status.setRollbackOnly();
			return result;
		});

		assertThat(vacuumed).isTrue();
		assertThat(vacuumCount()).isEqualTo(vacuums + 1);
		// Had the VACUUM turned auto-commit on for the transaction's connection, the job would be committed.
		assertThat(jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isZero();
	}

	@Test
	void aVacuumSkipsTheTableAtOnceWhileAnotherVacuumHoldsIt() throws Exception {
		long vacuums = vacuumCount();
		try (Connection otherNode = DriverManager.getConnection(database.jdbcUrl());
				Statement statement = otherNode.createStatement()) {
			otherNode.setAutoCommit(false);
			// The lock a VACUUM takes, held as another node's VACUUM would hold it.
			statement.execute("LOCK TABLE jobqueue_job IN SHARE UPDATE EXCLUSIVE MODE");

			boolean vacuumed = assertTimeoutPreemptively(Duration.ofSeconds(10),
					() -> database.store().maintenance().vacuumIfBloated(0));

			assertThat(vacuumed).isFalse();
			otherNode.rollback();
		}
		assertThat(vacuumCount()).isEqualTo(vacuums);
		assertThat(database.store().maintenance().vacuumIfBloated(0)).isTrue();
	}

	@Test
	void aUserWhoMayNotVacuumTheTableIsWarnedOnceAndTheStoreStopsTrying() {
		createNotOwnerRole();
		long vacuums = vacuumCount();
		try (HikariDataSource notOwner = notOwnerDataSource(); LogCapture logs = new LogCapture()) {
			JobStore store = PostgresDialect.jobStore(notOwner);

			assertThat(store.maintenance().vacuumIfBloated(0)).isFalse();
			assertThat(store.maintenance().vacuumIfBloated(0)).isFalse();

			assertThat(logs.messagesAtLeast(Level.WARN)).singleElement()
				.asString()
				.startsWith("jobqueue cannot vacuum jobqueue_job: database user " + NOT_OWNER + " may not")
				.contains("jobqueue.vacuum-interval=0");
		}
		assertThat(vacuumCount()).isEqualTo(vacuums);
	}

	private static void createNotOwnerRole() {
		jdbc().sql("""
				DO $$
				BEGIN
				    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'jobqueue_vacuum_test_not_owner') THEN
				        CREATE ROLE jobqueue_vacuum_test_not_owner NOLOGIN;
				    END IF;
				    EXECUTE format('GRANT USAGE ON SCHEMA %I TO jobqueue_vacuum_test_not_owner', current_schema());
				END $$""").update();
	}

	/** Connections of the test's user that act as a role owning neither the table nor the database. */
	private static HikariDataSource notOwnerDataSource() {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(database.jdbcUrl());
		config.setMaximumPoolSize(2);
		config.setConnectionInitSql("SET ROLE " + NOT_OWNER);
		return new HikariDataSource(config);
	}

	private static NewJob job() {
		return new NewJob(RuntimeSettings.DEFAULT_QUEUE, "work", "{}", 1, 0, null, Duration.ZERO, 3, null);
	}

	private static long vacuumCount() {
		return jdbc().sql("SELECT pg_stat_get_vacuum_count(CAST('jobqueue_job' AS regclass))").query(Long.class).single();
	}

	private static JdbcClient jdbc() {
		return JdbcClient.create(database.dataSource());
	}
}
