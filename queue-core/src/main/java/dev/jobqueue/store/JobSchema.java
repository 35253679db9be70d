package dev.jobqueue.store;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates and upgrades the queue's tables with Flyway, in a history table of our own
 * ({@code jobqueue_schema_history}) so that it never mixes with the application's own migrations.
 * Processes that start together on one database all come up, with the schema migrated once.
 */
public final class JobSchema {

	public static final String HISTORY_TABLE = "jobqueue_schema_history";

	/** Runs of a PostgreSQL migration in all, when processes that start together race to begin it. */
	static final int POSTGRES_ATTEMPTS = 5;

	private static final Logger log = LoggerFactory.getLogger(JobSchema.class);

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
		if ("sqlite".equals(vendor)) {
			migrateSqlite(dataSource, flyway);
		}
		else {
			migratePostgres(flyway);
		}
	}

	/**
	 * SQLite has no lock Flyway could take, so processes take turns on a lock file. Flyway's transactions
	 * begin deferred, and SQLite refuses one at its first write, without waiting, when a process that is
	 * not migrating (a worker already running) wrote since it read the history: the refused migration
	 * rolled back whole, and the next try reads the history again.
	 */
	private static void migrateSqlite(DataSource dataSource, Flyway flyway) {
		try (SqliteMigrationLock lock = SqliteMigrationLock.take(dataSource)) {
			SqliteBusyRetry.retry("the schema migration", flyway::migrate);
		}
	}

	/**
	 * Flyway's advisory lock serializes the migrations on PostgreSQL, but not the creation of the history
	 * table of a new schema: two processes can both create it, and the one that lost fails ("Unable to
	 * baseline schema history table … as it already exists, and is empty"). Run again, it finds the table
	 * and waits for Flyway's lock like the others. A failure that is not such a race fails every run, and
	 * the last one is thrown.
	 */
	private static void migratePostgres(Flyway flyway) {
		for (int attempt = 1;; attempt++) {
			try {
				flyway.migrate();
				return;
			}
			catch (FlywayException ex) {
				if (attempt == POSTGRES_ATTEMPTS || !pause(attempt)) {
					throw ex;
				}
				log.info("jobqueue's schema migration failed, likely racing another process that starts on this "
						+ "database; running it again ({})", ex.getMessage());
			}
		}
	}

	/** False when interrupted: the caller is stopping, and gets the failure instead of another run. */
	private static boolean pause(int attempt) {
		try {
			Thread.sleep(100L * attempt);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}
}
