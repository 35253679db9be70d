package dev.jobqueue.store.sqlite.support;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

import dev.jobqueue.support.SqliteTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A write that SQLite still refuses as busy once its retries are spent is reported as transient, as it
 * is: the runtime then waits for the database instead of taking the refusal for one about the write
 * (which would, for a batch of completions, split it into ever smaller statements that each wait again).
 */
class SqliteStatementsTest {

	private final SqliteTestDatabase database = new SqliteTestDatabase(2);

	@AfterEach
	void closeDatabase() {
		database.close();
	}

	@Test
	void aWriteStillBusyAfterItsRetriesIsATransientFailure() {
		SqliteStatements statements = new SqliteStatements(SqliteDataSources.queueView(database.dataSource()));
		AtomicInteger attempts = new AtomicInteger();

		assertThatExceptionOfType(TransientDataAccessResourceException.class)
			.isThrownBy(() -> statements.write("complete all", () -> {
				attempts.incrementAndGet();
				throw new UncategorizedSQLException("complete all", "UPDATE jobqueue_job …",
						new SQLiteException("[SQLITE_BUSY] The database file is locked", SQLiteErrorCode.SQLITE_BUSY));
			}))
			.withMessageContaining("complete all");
		assertThat(attempts).hasValue(SqliteBusyRetry.MAX_ATTEMPTS);
	}

	@Test
	void anyOtherRefusalIsLeftAsItIs() {
		SqliteStatements statements = new SqliteStatements(SqliteDataSources.queueView(database.dataSource()));
		UncategorizedSQLException check = new UncategorizedSQLException("complete all", "UPDATE jobqueue_job …",
				new SQLiteException("CHECK constraint failed", SQLiteErrorCode.SQLITE_CONSTRAINT_CHECK));

		assertThatExceptionOfType(UncategorizedSQLException.class).isThrownBy(() -> statements.write("complete all", () -> {
			throw check;
		})).isSameAs(check);
	}
}
