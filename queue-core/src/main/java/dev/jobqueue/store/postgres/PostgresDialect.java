package dev.jobqueue.store.postgres;

import java.time.Duration;
import java.util.Collection;

import javax.sql.DataSource;

import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.RacingMigration;
import dev.jobqueue.store.WakeupSource;

/** PostgreSQL: claims with {@code SKIP LOCKED}, wakeups by {@code LISTEN}/{@code NOTIFY}. */
public final class PostgresDialect implements Dialect {

	@Override
	public String vendor() {
		return PostgresJobStore.VENDOR;
	}

	@Override
	public JobStore store(DataSource dataSource, boolean notify, Duration statementTimeout) {
		return new PostgresJobStore(dataSource, notify, statementTimeout);
	}

	@Override
	public void migrate(DataSource dataSource) {
		RacingMigration.migrate(dataSource, PostgresJobStore.VENDOR);
	}

	/** {@code LISTEN} needs a session of its own, which a transaction pooler cannot give: none without notify. */
	@Override
	public WakeupSource wakeups(DataSource dataSource, Collection<String> queues, boolean notify) {
		return notify ? new PostgresNotificationListener(dataSource, queues) : null;
	}

	/** As {@link #wakeups}: none without notify. */
	@Override
	public WakeupSource finishes(DataSource dataSource, boolean notify) {
		return notify ? PostgresNotificationListener.finishes(dataSource) : null;
	}

	@Override
	public TransactionOperations handlerTransactions(TransactionOperations transactions) {
		return transactions;
	}
}
