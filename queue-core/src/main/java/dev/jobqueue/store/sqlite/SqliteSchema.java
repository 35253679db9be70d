package dev.jobqueue.store.sqlite;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;

import dev.jobqueue.store.JobSchema;

/** Migrates the queue's tables on SQLite; processes that start together all come up, migrated once. */
final class SqliteSchema {

	private SqliteSchema() {
	}

	/**
	 * SQLite has no lock Flyway could take, so processes take turns on a lock file. Flyway's transactions
	 * begin deferred, and SQLite refuses one at its first write, without waiting, when a process that is
	 * not migrating (a worker already running) wrote since it read the history: the refused migration
	 * rolled back whole, and the next try reads the history again.
	 */
	static void migrate(DataSource dataSource) {
		Flyway flyway = JobSchema.flyway(dataSource, SqliteJobStore.VENDOR);
		try (SqliteMigrationLock lock = SqliteMigrationLock.take(dataSource)) {
			SqliteBusyRetry.retry("the schema migration", flyway::migrate);
		}
	}
}
