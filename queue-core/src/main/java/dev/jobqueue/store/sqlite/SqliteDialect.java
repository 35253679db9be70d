package dev.jobqueue.store.sqlite;

import java.time.Duration;
import java.util.Collection;

import javax.sql.DataSource;

import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.WakeupSource;

/** SQLite: claims under {@code BEGIN IMMEDIATE}, wakeups by watching the file's data version. */
public final class SqliteDialect implements Dialect {

	@Override
	public String vendor() {
		return SqliteJobStore.VENDOR;
	}

	/** SQLite has no statement timeout to set, and nothing to notify: the file itself is watched. */
	@Override
	public JobStore store(DataSource dataSource, boolean notify, Duration statementTimeout) {
		return new SqliteJobStore(dataSource);
	}

	@Override
	public void migrate(DataSource dataSource) {
		SqliteSchema.migrate(dataSource);
	}

	@Override
	public WakeupSource wakeups(DataSource dataSource, Collection<String> queues, boolean notify) {
		return new SqliteChangeWatcher(dataSource, queues, SqliteChangeWatcher.DEFAULT_INTERVAL);
	}

	@Override
	public WakeupSource finishes(DataSource dataSource, boolean notify) {
		return SqliteChangeWatcher.finishes(dataSource, SqliteChangeWatcher.DEFAULT_INTERVAL);
	}

	@Override
	public TransactionOperations handlerTransactions(TransactionOperations transactions) {
		return SqliteDataSources.forHandlers(transactions);
	}
}
