package dev.jobqueue.store.mysql;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.store.JobSchema;

/** Migrates the queue's tables on MySQL; processes that start together all come up, migrated once. */
final class MysqlSchema {

	/** Runs of a migration in all, when processes that start together race to begin it. */
	static final int ATTEMPTS = 5;

	private static final Logger log = LoggerFactory.getLogger(MysqlSchema.class);

	private MysqlSchema() {
	}

	/**
	 * Flyway's named lock ({@code GET_LOCK}) serializes the migrations, but not the creation of the history table
	 * of a new database, as on PostgreSQL: two processes can both create it, and the one that lost fails ("Unable
	 * to baseline schema history table … as it already exists, and is empty"; MysqlSchemaMigrationRaceTest saw it
	 * in one round of twenty). Run again, it finds the table and waits for Flyway's lock like the others. A failure
	 * that is not such a race fails every run, and the last one is thrown.
	 */
	static void migrate(DataSource dataSource) {
		Flyway flyway = JobSchema.flyway(dataSource, MysqlJobStore.VENDOR);
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
