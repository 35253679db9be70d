package dev.jobqueue.store.mysql;

import java.time.Duration;
import java.util.Collection;

import javax.sql.DataSource;

import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.RacingMigration;
import dev.jobqueue.store.WakeupSource;

/**
 * MySQL 8 and MariaDB: claims with {@code SKIP LOCKED} where the server has it, else by compare-and-set
 * ({@link MysqlClaimMethod}). MySQL has no LISTEN/NOTIFY: a process wakes its own pollers after its commits (the
 * runtime does, on every database), and a {@link MysqlChangeWatcher} wakes them for other processes' jobs.
 */
public final class MysqlDialect implements Dialect {

	@Override
	public String vendor() {
		return MysqlJobStore.VENDOR;
	}

	@Override
	public JobStore store(DataSource dataSource, boolean notify, Duration statementTimeout) {
		return new MysqlJobStore(dataSource, statementTimeout);
	}

	@Override
	public void migrate(DataSource dataSource) {
		RacingMigration.migrate(dataSource, MysqlJobStore.VENDOR);
	}

	/**
	 * A watcher of the newest id and finish time, which holds one connection; none without notify, for a
	 * deployment that wants the pool's connections for work only: other processes' jobs are then found at the
	 * next poll.
	 */
	@Override
	public WakeupSource wakeups(DataSource dataSource, Collection<String> queues, boolean notify) {
		return notify ? new MysqlChangeWatcher(dataSource, queues, MysqlChangeWatcher.DEFAULT_INTERVAL) : null;
	}

	/** As {@link #wakeups}: without notify, awaiters look again at every poll interval. */
	@Override
	public WakeupSource finishes(DataSource dataSource, boolean notify) {
		return notify ? MysqlChangeWatcher.finishes(dataSource, MysqlChangeWatcher.DEFAULT_INTERVAL) : null;
	}

	@Override
	public TransactionOperations handlerTransactions(TransactionOperations transactions) {
		return transactions;
	}
}
