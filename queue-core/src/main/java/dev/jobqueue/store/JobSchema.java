package dev.jobqueue.store;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;

/**
 * Creates and upgrades the queue's tables with Flyway, in a history table of our own
 * ({@code jobqueue_schema_history}) so that it never mixes with the application's own migrations.
 */
public final class JobSchema {

	public static final String HISTORY_TABLE = "jobqueue_schema_history";

	private JobSchema() {
	}

	/**
	 * Flyway on {@code dataSource} with the migrations of {@code vendor} ({@link JobStore#vendor()}); each
	 * dialect runs it its own way, as processes that start together race to migrate differently on each.
	 */
	public static Flyway flyway(DataSource dataSource, String vendor) {
		return Flyway.configure(JobSchema.class.getClassLoader())
			.dataSource(dataSource)
			.table(HISTORY_TABLE)
			.locations("classpath:db/jobqueue/" + vendor)
			// The application's schema may already hold its own tables; ours go beside them.
			.baselineOnMigrate(true)
			.baselineVersion("0")
			.load();
	}
}
