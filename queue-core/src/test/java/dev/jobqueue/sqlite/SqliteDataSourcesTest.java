package dev.jobqueue.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.sqlite.support.SqliteDataSources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the queue makes of a SQLite DataSource the application configured its own way. */
class SqliteDataSourcesTest {

	@TempDir
	Path directory;

	private DataSource plain(String url) {
		return new DriverManagerDataSource(url);
	}

	private DataSource file() {
		return plain("jdbc:sqlite:" + directory.resolve("app.db"));
	}

	@Test
	void aDatabaseInRollbackJournalModeIsSwitchedToWalForEveryProcess() {
		DataSource application = file();
		assertThat(pragma(application, "journal_mode")).isEqualTo("delete");

		JobStores.forDataSource(application);

		assertThat(pragma(application, "journal_mode")).isEqualTo("wal");
	}

	@Test
	void anInMemoryDatabaseFailsAtStartupSayingWhy() {
		assertThatIllegalStateException().isThrownBy(() -> JobStores.forDataSource(plain("jdbc:sqlite::memory:")))
			.withMessageContaining("WAL")
			.withMessageContaining("in-memory");
	}

	@Test
	void connectionsTheQueueTakesCommitWithSynchronousNormal() {
		DataSource queue = SqliteDataSources.forQueue(file());

		assertThat(pragma(queue, "synchronous")).isEqualTo("1");
	}

	@Test
	void theApplicationsConnectionsKeepTheirDurabilityAndBusyTimeoutAfterTheQueueRanOnThem() throws SQLException {
		// One pooled connection: every statement of the queue below runs on the one the application gets back.
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:sqlite:" + directory.resolve("app.db") + "?busy_timeout=4321");
		config.setMaximumPoolSize(1);
		try (HikariDataSource application = new HikariDataSource(config)) {
			JobStore store = JobStores.forDataSource(application);
			JobStores.migrate(application, store.vendor());

			store.enqueues().enqueue(new NewJob("default", "work", "{}", 1, 0, null, Duration.ZERO, 3, null));
			store.enqueues().enqueueAll(List.of(new NewJob("default", "work", "{}", 1, 0, null, Duration.ZERO, 3, null)));
			List<ClaimedJob> claimed = store.claims().claim("default", Map.of("work", 1), 2, "worker", Duration.ofMinutes(1),
					false);
			store.claims().heartbeat("worker", claimed.stream().map(ClaimedJob::lease).toList(), Duration.ofMinutes(1));
			store.outcomes().complete(claimed.get(0).lease(), null);
			store.outcomes().completeAll(List.of(new Completion(claimed.get(1).lease(), null)));
			store.maintenance().reapExpired(10);

			assertThat(List.of(pragma(application, "synchronous"), pragma(application, "busy_timeout")))
				.as("synchronous (2 = FULL) and busy_timeout of the application's connection")
				.containsExactly("2", "4321");
		}
	}

	@Test
	void aConnectionTheApplicationSetToExtraKeepsIt() {
		DataSource queue = SqliteDataSources.forQueue(plain("jdbc:sqlite:" + directory.resolve("app.db")
				+ "?synchronous=EXTRA"));

		assertThat(pragma(queue, "synchronous")).isEqualTo("3");
	}

	@Test
	void aWriteOfTheQueueWaitsForAnotherConnectionsWriteLockInsteadOfFailing() throws Exception {
		DataSource application = plain("jdbc:sqlite:" + directory.resolve("app.db") + "?busy_timeout=0");
		DataSource queue = SqliteDataSources.forQueue(application);
		JdbcClient.create(application).sql("CREATE TABLE note (text TEXT)").update();

		try (Connection holder = application.getConnection(); Statement statement = holder.createStatement()) {
			statement.execute("BEGIN IMMEDIATE");
			Thread releaser = new Thread(() -> {
				try {
					Thread.sleep(300);
					statement.execute("COMMIT");
				}
				catch (InterruptedException | SQLException ex) {
					throw new IllegalStateException(ex);
				}
			});
			releaser.start();
			long start = System.nanoTime();

			JdbcClient.create(queue).sql("INSERT INTO note VALUES ('waited')").update();

			assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(250);
			releaser.join();
		}
	}

	@Test
	void aTransactionTheQueueBeginsHoldsTheWriteLockFromItsStart() {
		DataSource application = file();
		DataSource queue = SqliteDataSources.forQueue(application);
		JdbcClient.create(application).sql("CREATE TABLE note (text TEXT)").update();

		new TransactionTemplate(new JdbcTransactionManager(queue)).executeWithoutResult(status -> {
			// Nothing written yet, and still no other connection can begin writing.
			assertThatThrownBy(() -> beginImmediateWithoutWaiting(application)).isInstanceOf(SQLException.class)
				.hasMessageContaining("locked");
			// The application's code on its own DataSource joins the queue's transaction.
			JdbcClient.create(application).sql("INSERT INTO note VALUES ('joined')").update();
			status.setRollbackOnly();
		});

		assertThat(JdbcClient.create(application).sql("SELECT count(*) FROM note").query(Long.class).single()).isZero();
	}

	@Test
	void aTransactionTheApplicationBeginsOnItsOwnDataSourceStaysDeferred() throws SQLException {
		DataSource application = file();
		SqliteDataSources.forQueue(application);

		new TransactionTemplate(new JdbcTransactionManager(application)).executeWithoutResult(status -> {
			try {
				beginImmediateWithoutWaiting(application);
			}
			catch (SQLException ex) {
				throw new AssertionError("the application's deferred transaction took the write lock", ex);
			}
		});
	}

	private static void beginImmediateWithoutWaiting(DataSource dataSource) throws SQLException {
		try (Connection other = dataSource.getConnection(); Statement statement = other.createStatement()) {
			statement.execute("PRAGMA busy_timeout = 0");
			statement.execute("BEGIN IMMEDIATE");
			statement.execute("ROLLBACK");
		}
	}

	private static String pragma(DataSource dataSource, String name) {
		return JdbcClient.create(dataSource).sql("PRAGMA " + name).query(String.class).single();
	}
}
