package dev.jobqueue.store.mysql;

import java.time.Duration;
import java.util.Collection;

import javax.sql.DataSource;

import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.WakeupSource;

/**
 * MySQL 8 and MariaDB: claims with {@code SKIP LOCKED} where the server has it, else by compare-and-set
 * ({@link MysqlClaimMethod}). MySQL has no LISTEN/NOTIFY: a process wakes its own pollers after its commits (the
 * runtime does, on every database), and finds the jobs other processes enqueued at its next poll.
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
		MysqlSchema.migrate(dataSource);
	}

	/** Nothing tells one process of another's commits: other processes' jobs are found at the next poll. */
	@Override
	public WakeupSource wakeups(DataSource dataSource, Collection<String> queues, boolean notify) {
		return null;
	}

	/** As {@link #wakeups}: awaiters look again at every poll interval. */
	@Override
	public WakeupSource finishes(DataSource dataSource, boolean notify) {
		return null;
	}

	@Override
	public TransactionOperations handlerTransactions(TransactionOperations transactions) {
		return transactions;
	}
}
