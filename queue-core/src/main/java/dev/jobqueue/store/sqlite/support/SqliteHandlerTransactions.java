package dev.jobqueue.store.sqlite.support;

import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionOperations;

/**
 * The transactions transactional handlers run in on SQLite: the application's own, deferred, so that a
 * handler takes SQLite's write lock at its first write and holds it until its completion commits, and
 * stops no other writer while it computes, calls out or reads.
 *
 * <p>A deferred transaction pays for that with SQLite's rule for upgrades: its first write is refused at
 * once ({@code SQLITE_BUSY}, or {@code SQLITE_BUSY_SNAPSHOT}) when another connection holds the write lock
 * or has committed since the transaction's first read, as its reads would no longer be those of the
 * database it writes to. The whole transaction then rolls back, the handler's writes with it, and the
 * handler runs again from the start on a fresh snapshot, a bounded number of times
 * ({@link SqliteBusyRetry}). A handler whose work between its first read and its commit is long gets
 * overtaken every time by the queue's own heartbeats and fails, saying so: on SQLite, that stretch must
 * be short, and slow work belongs before the handler's first statement.
 */
public final class SqliteHandlerTransactions implements TransactionOperations {

	private final TransactionOperations transactions;

	public SqliteHandlerTransactions(TransactionOperations transactions) {
		this.transactions = transactions;
	}

	@Override
	public <T> T execute(TransactionCallback<T> action) throws TransactionException {
		try {
			return SqliteBusyRetry.retry("a transactional handler", () -> transactions.execute(action));
		}
		catch (RuntimeException ex) {
			if (!SqliteBusyRetry.isBusy(ex)) {
				throw ex;
			}
			throw new IllegalStateException("SQLite refused the writes of this transactional handler "
					+ SqliteBusyRetry.MAX_ATTEMPTS + " times, each run rolled back: another connection was writing, "
					+ "or had committed since the handler's first read. On SQLite keep a transactional handler's "
					+ "work from its first statement to its end short, and do slow work before it", ex);
		}
	}
}
