package dev.jobqueue.autoconfigure;

import javax.sql.DataSource;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.store.JobSchema;
import dev.jobqueue.store.JobStore;

/**
 * Creates and upgrades the queue's tables when the context starts, with our own Flyway run and history
 * table, then checks their version, migrated here or not ({@link JobSchema#verify}): an application whose
 * own tooling applies the migrations learns at startup that one is missing. No {@code Flyway} bean is
 * published: Spring Boot's Flyway auto-configuration would back off and the application's own migrations
 * would no longer run.
 */
final class JobQueueSchemaInitializer implements InitializingBean {

	private final DataSource dataSource;

	private final JobStore store;

	private final String vendor;

	private final DatabaseInitializationMode mode;

	JobQueueSchemaInitializer(DataSource dataSource, JobStore store, DatabaseInitializationMode mode) {
		this.dataSource = dataSource;
		this.store = store;
		this.vendor = store.vendor();
		this.mode = mode;
	}

	@Override
	public void afterPropertiesSet() {
		if (isEnabled()) {
			JobStores.migrate(dataSource, vendor);
		}
		JobSchema.verify(store);
	}

	boolean isEnabled() {
		return switch (mode) {
			case ALWAYS -> true;
			case NEVER -> false;
			// SQLite runs inside the application's process, on a file only it owns: embedded in every sense
			// that matters here, though Spring Boot's list of embedded databases knows only in-memory ones.
			case EMBEDDED -> "sqlite".equals(vendor) || EmbeddedDatabaseConnection.isEmbedded(dataSource);
		};
	}
}
