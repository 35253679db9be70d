package dev.jobqueue.store;

import javax.sql.DataSource;

/**
 * Held around the queue's schema migration so that processes starting together on one database
 * migrate one after the other: the first creates the schema, the others wait, then find it current.
 * Flyway alone does not make that safe: on PostgreSQL two processes can both create the history table
 * of a new schema (one then fails to baseline it), and SQLite has no lock Flyway could take.
 */
interface MigrationLock extends AutoCloseable {

	/** Takes the lock of {@code vendor}'s database behind {@code dataSource}, waiting for it. */
	static MigrationLock take(DataSource dataSource, String vendor) {
		return switch (vendor) {
			case "postgresql" -> PostgresMigrationLock.take(dataSource);
			case "sqlite" -> SqliteMigrationLock.take(dataSource);
			default -> throw new IllegalStateException(
					"jobqueue does not support the database '" + vendor + "'; supported: " + JobStores.SUPPORTED);
		};
	}

	@Override
	void close();
}
