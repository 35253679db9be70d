package dev.jobqueue.store;

import java.util.function.Supplier;

import javax.sql.DataSource;

import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Runs the queue's statements on SQLite with a bounded retry when the database stays busy. Only a
 * statement that is a transaction of its own is retried: inside a transaction, a refused statement
 * may follow others that are already written, and only the transaction's owner can start over.
 */
final class SqliteStatements {

	private final DataSource dataSource;

	SqliteStatements(DataSource dataSource) {
		this.dataSource = dataSource;
	}

	<T> T run(String what, Supplier<T> statement) {
		if (TransactionSynchronizationManager.hasResource(dataSource)) {
			return statement.get();
		}
		return SqliteBusy.retry(what, statement::get);
	}
}
