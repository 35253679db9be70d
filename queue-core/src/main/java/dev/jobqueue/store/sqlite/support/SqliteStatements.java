package dev.jobqueue.store.sqlite.support;

import java.util.function.Supplier;

import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.jobqueue.store.StatementRunner;

/**
 * Runs the queue's statements on SQLite with a bounded retry when the database stays busy. Only a
 * statement that is a transaction of its own is retried: inside a transaction, a refused statement
 * may follow others that are already written, and only the transaction's owner can start over.
 */
public final class SqliteStatements implements StatementRunner {

	private final SqliteQueueDataSource dataSource;

	public SqliteStatements(SqliteQueueDataSource dataSource) {
		this.dataSource = dataSource;
	}

	/** A statement that writes: on its own, it lines up at the process's write gate first. */
	@Override
	public <T> T write(String what, Supplier<T> statement) {
		if (inTransaction()) {
			return statement.get();
		}
		return dataSource.gate().write(() -> stillBusyIsTransient(what, statement));
	}

	/**
	 * SQLite's "busy" carries no SQLSTATE, so Spring leaves it uncategorized, which reads as a refusal of
	 * the write itself. It is the opposite: nothing was written and a later try can succeed. Said as a
	 * transient failure, the runtime waits for the database rather than, say, splitting a batch of
	 * completions into smaller statements that would each wait out the busy timeout again.
	 */
	private static <T> T stillBusyIsTransient(String what, Supplier<T> statement) {
		try {
			return SqliteBusyRetry.retry(what, statement::get);
		}
		catch (RuntimeException ex) {
			if (SqliteBusyRetry.isBusy(ex)) {
				throw new TransientDataAccessResourceException("SQLite stayed busy for " + what, ex);
			}
			throw ex;
		}
	}

	/** A statement that only reads: in WAL mode it never waits for a writer, but may meet a busy recovery. */
	@Override
	public <T> T read(String what, Supplier<T> statement) {
		if (inTransaction()) {
			return statement.get();
		}
		return SqliteBusyRetry.retry(what, statement::get);
	}

	private boolean inTransaction() {
		return TransactionSynchronizationManager.hasResource(dataSource);
	}
}
