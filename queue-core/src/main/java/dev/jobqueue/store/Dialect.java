package dev.jobqueue.store;

import java.time.Duration;
import java.util.Collection;

import javax.sql.DataSource;

import org.springframework.transaction.support.TransactionOperations;

/**
 * What one database needs of the queue beyond the contract every {@link JobStore} keeps: how its store (and its
 * {@link TestHooks}) are made, how its schema is migrated, how other processes' jobs wake this one's pollers, and
 * how handlers' transactions run on it. Each dialect package holds one; a dialect is chosen once, at startup.
 */
public interface Dialect {

	/** The name used in configuration and schema locations ({@code postgresql}, {@code sqlite}). */
	String vendor();

	/**
	 * The store on {@code dataSource}. Its statements give up after {@code statementTimeout} where the
	 * database can bound them (zero: never); {@code notify} false keeps it from signalling other processes
	 * where that needs a session of its own (poll-only operation behind a transaction pooler).
	 */
	JobStore store(DataSource dataSource, boolean notify, Duration statementTimeout);

	/**
	 * The statements only tests send ({@link TestHooks}), on {@code dataSource}: the one the store under test
	 * uses, so that they join a transaction the test holds on it.
	 */
	TestHooks testHooks(DataSource dataSource);

	/** Creates or upgrades the queue's tables; processes that start together all come up, migrated once. */
	void migrate(DataSource dataSource);

	/**
	 * What wakes the pollers of {@code queues} when other processes enqueue, or {@code null} where nothing can
	 * (then they find the jobs at their next poll).
	 */
	WakeupSource wakeups(DataSource dataSource, Collection<String> queues, boolean notify);

	/**
	 * What wakes the awaiters of jobs ({@code JobQueue.await}) when jobs may have finished, with an empty
	 * name, once when it starts and then at each such change; {@code null} where nothing can (then awaiters
	 * look at every poll interval).
	 */
	WakeupSource finishes(DataSource dataSource, boolean notify);

	/** The transactions transactional handlers run in, from those of the application's own manager. */
	TransactionOperations handlerTransactions(TransactionOperations transactions);
}
