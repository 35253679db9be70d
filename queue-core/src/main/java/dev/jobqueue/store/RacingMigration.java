package dev.jobqueue.store;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Migrates the queue's tables on a server that several processes may start against at once (PostgreSQL,
 * MySQL); processes that start together all come up, migrated once.
 */
public final class RacingMigration {

	/** Runs of a migration in all, when processes that start together race to begin it. */
	static final int ATTEMPTS = 5;

	private static final Logger log = LoggerFactory.getLogger(RacingMigration.class);

	private RacingMigration() {
	}

	/**
	 * Flyway's lock (an advisory lock on PostgreSQL, {@code GET_LOCK} on MySQL) serializes the migrations, but
	 * not the creation of the history table of a new schema: two processes can both create it, and the one that
	 * lost fails ("Unable to baseline schema history table … as it already exists, and is empty";
	 * SchemaMigrationRaceContractTest saw it on both). Run again, it finds the table and waits for Flyway's lock
	 * like the others. A failure that is not such a race fails every run, and the last one is thrown.
	 */
	public static void migrate(DataSource dataSource, String vendor) {
		Flyway flyway = JobSchema.flyway(dataSource, vendor);
		for (int attempt = 1;; attempt++) {
			try {
				flyway.migrate();
				return;
			}
			catch (FlywayException ex) {
				if (attempt == ATTEMPTS || !pause(attempt)) {
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
