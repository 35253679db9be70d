package dev.jobqueue.store.sqlite;

import java.time.Duration;
import java.util.Collection;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.store.BatchStatements;
import dev.jobqueue.store.BatchTransactions;
import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobSchema;
import dev.jobqueue.store.DependencyStatements;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.TestHooks;
import dev.jobqueue.store.TransitionSql;
import dev.jobqueue.store.WakeupSource;
import dev.jobqueue.store.sqlite.support.SqliteBusyRetry;
import dev.jobqueue.store.sqlite.support.SqliteChangeWatcher;
import dev.jobqueue.store.sqlite.support.SqliteDataSources;
import dev.jobqueue.store.sqlite.support.SqliteMigrationLock;
import dev.jobqueue.store.sqlite.support.SqliteQueueDataSource;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/**
 * SQLite: claims under {@code BEGIN IMMEDIATE}, wakeups by watching the file's data version. The statements run on
 * the connections {@link SqliteDataSources#forQueue} prepares (WAL, busy timeout, immediate transactions). Every
 * time is the database's clock, {@code unixepoch('subsec')}, in epoch milliseconds: the processes sharing a database
 * file share a machine, and through SQLite they share one clock reading per statement.
 */
public final class SqliteDialect implements Dialect {

	public static final String VENDOR = "sqlite";

	/** The state machine's conditions, for SQLite's 0-and-1 columns. */
	static final TransitionSql TRANSITIONS = TransitionSql.INTEGER_COLUMNS;

	/** The database's clock, as the statements written once for every dialect read and store it. */
	private static final String NOW = "CAST(round(unixepoch('subsec') * 1000) AS INTEGER)";

	/** The store on {@code dataSource}; switches the database to WAL, and fails when it cannot be. */
	public static JobStore jobStore(DataSource dataSource) {
		SqliteQueueDataSource queue = SqliteDataSources.queueView(dataSource);
		JdbcClient jdbc = JdbcClient.create(queue);
		SqliteStatements statements = new SqliteStatements(queue);
		BatchTransactions transactions = new BatchTransactions(queue);
		SqliteEnqueue enqueue = new SqliteEnqueue(jdbc, statements, transactions);
		return new JobStore(VENDOR, enqueue, new SqliteClaims(jdbc, statements), new SqliteOutcomes(jdbc, statements),
				new SqlitePromotions(queue, jdbc, statements), new SqlitePauses(jdbc, statements),
				new SqliteSchedules(jdbc, statements, enqueue, transactions), new SqliteMaintenance(jdbc, statements),
				new SqliteNodes(jdbc, statements), new SqliteSearch(jdbc, statements), new SqliteExplain(jdbc, statements),
				new SqliteBulk(jdbc, statements), new SqliteTelemetry(jdbc, statements), new SqliteSteps(jdbc, statements),
				new DependencyStatements(jdbc, statements, transactions, enqueue, TRANSITIONS, NOW),
				new BatchStatements(jdbc, statements, transactions, TRANSITIONS, NOW));
	}

	@Override
	public String vendor() {
		return VENDOR;
	}

	/** SQLite has no statement timeout to set, and nothing to notify: the file itself is watched. */
	@Override
	public JobStore store(DataSource dataSource, boolean notify, Duration statementTimeout) {
		return jobStore(dataSource);
	}

	@Override
	public TestHooks testHooks(DataSource dataSource) {
		SqliteQueueDataSource queue = SqliteDataSources.queueView(dataSource);
		return new SqliteTestSupport(JdbcClient.create(queue), new SqliteStatements(queue));
	}

	/**
	 * SQLite has no lock Flyway could take, so processes take turns on a lock file. Flyway's transactions
	 * begin deferred, and SQLite refuses one at its first write, without waiting, when a process that is
	 * not migrating (a worker already running) wrote since it read the history: the refused migration
	 * rolled back whole, and the next try reads the history again.
	 */
	@Override
	public void migrate(DataSource dataSource) {
		Flyway flyway = JobSchema.flyway(dataSource, VENDOR);
		try (SqliteMigrationLock lock = SqliteMigrationLock.take(dataSource)) {
			SqliteBusyRetry.retry("the schema migration", flyway::migrate);
		}
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
