package dev.jobqueue.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.store.sqlite.support.SqliteDataSources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The transactions transactional handlers run in on SQLite: deferred, so that a handler holds SQLite's
 * write lock only from its first write to its commit, and run again from the start when SQLite refuses
 * that write.
 */
class SqliteHandlerTransactionsTest {

	@TempDir
	Path directory;

	private DataSource application;

	private JdbcClient jdbc;

	private TransactionOperations transactions;

	@BeforeEach
	void database() {
		application = new DriverManagerDataSource("jdbc:sqlite:" + directory.resolve("app.db"));
		// The queue switches the file to WAL, where readers and the writer do not stop each other.
		SqliteDataSources.forQueue(application);
		transactions = SqliteDataSources.forHandlers(new TransactionTemplate(new JdbcTransactionManager(application)));
		jdbc = JdbcClient.create(application);
		jdbc.sql("CREATE TABLE account (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)").update();
		jdbc.sql("INSERT INTO account (id, balance) VALUES (1, 0)").update();
	}

	@Test
	void aHandlerThatHasOnlyReadSoFarStopsNoOtherWriter() {
		transactions.executeWithoutResult(status -> {
			balance();
			depositWithoutWaiting();
		});

		assertThat(balance()).isEqualTo(1);
	}

	@Test
	void aHandlerWhoseReadWasOvertakenIsRunAgainFromTheStartAndWritesOnce() {
		AtomicInteger runs = new AtomicInteger();

		transactions.executeWithoutResult(status -> {
			long balance = balance();
			if (runs.incrementAndGet() == 1) {
				// Another connection commits after this transaction read: SQLite cannot let it write any more.
				depositWithoutWaiting();
			}
			jdbc.sql("UPDATE account SET balance = :balance WHERE id = 1").param("balance", balance + 10).update();
		});

		assertThat(runs).hasValue(2);
		assertThat(balance()).as("the other deposit, then the handler's on the balance it read again").isEqualTo(11);
	}

	@Test
	void aHandlerOvertakenEveryTimeFailsSayingWhatToChange() {
		AtomicInteger runs = new AtomicInteger();

		assertThatIllegalStateException().isThrownBy(() -> transactions.executeWithoutResult(status -> {
			runs.incrementAndGet();
			long balance = balance();
			depositWithoutWaiting();
			jdbc.sql("UPDATE account SET balance = :balance WHERE id = 1").param("balance", balance + 10).update();
		})).withMessageContaining("refused").withMessageContaining("short");

		assertThat(runs).as("runs, each rolled back").hasValueGreaterThan(1);
		assertThat(balance()).as("the other deposits only").isEqualTo(runs.get());
	}

	private long balance() {
		return jdbc.sql("SELECT balance FROM account WHERE id = 1").query(Long.class).single();
	}

	/** Adds 1 on a connection of its own that does not wait for the write lock: fails when another holds it. */
	private void depositWithoutWaiting() {
		try (Connection other = application.getConnection(); Statement statement = other.createStatement()) {
			statement.execute("PRAGMA busy_timeout = 0");
			statement.execute("UPDATE account SET balance = balance + 1 WHERE id = 1");
		}
		catch (SQLException ex) {
			throw new IllegalStateException("another connection could not write: " + ex.getMessage(), ex);
		}
	}
}
