package dev.jobqueue.autoconfigure;

import javax.sql.DataSource;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

import dev.jobqueue.core.JobStores;

/**
 * Creates and upgrades the queue's tables when the context starts, with our own Flyway run and history
 * table. No {@code Flyway} bean is published: Spring Boot's Flyway auto-configuration would back off and
 * the application's own migrations would no longer run.
 */
final class JobQueueSchemaInitializer implements InitializingBean {

	private final DataSource dataSource;

	private final String vendor;

	private final DatabaseInitializationMode mode;

	JobQueueSchemaInitializer(DataSource dataSource, String vendor, DatabaseInitializationMode mode) {
		this.dataSource = dataSource;
		this.vendor = vendor;
		this.mode = mode;
	}

	@Override
	public void afterPropertiesSet() {
		if (isEnabled()) {
			JobStores.migrate(dataSource, vendor);
		}
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
