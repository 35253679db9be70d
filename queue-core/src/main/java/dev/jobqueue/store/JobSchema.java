package dev.jobqueue.store;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;

/**
 * Creates and upgrades the queue's tables with Flyway, in a history table of our own
 * ({@code jobqueue_schema_history}) so that it never mixes with the application's own migrations.
 * Processes that start together take turns ({@link MigrationLock}): the first migrates, the others
 * wait and then find the schema current.
 */
public final class JobSchema {

	public static final String HISTORY_TABLE = "jobqueue_schema_history";

	private JobSchema() {
	}

	/** Migrates {@code dataSource} to the latest schema of {@code vendor} ({@link JobStore#vendor()}). */
	public static void migrate(DataSource dataSource, String vendor) {
		Flyway flyway = Flyway.configure(JobSchema.class.getClassLoader())
			.dataSource(dataSource)
			.table(HISTORY_TABLE)
			.locations("classpath:db/jobqueue/" + vendor)
			// The application's schema may already hold its own tables; ours go beside them.
			.baselineOnMigrate(true)
			.baselineVersion("0")
			.load();
		try (MigrationLock lock = MigrationLock.take(dataSource, vendor)) {
			if ("sqlite".equals(vendor)) {
				// Flyway's transactions begin deferred, and SQLite refuses one at its first write, without
				// waiting, when another process (a running worker) wrote since it read the history. The
				// refused migration rolled back whole; the next try reads the history again.
				SqliteBusyRetry.retry("the schema migration", flyway::migrate);
			}
			else {
				flyway.migrate();
			}
		}
	}
}
