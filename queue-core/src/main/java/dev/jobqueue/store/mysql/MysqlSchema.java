package dev.jobqueue.store.mysql;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;

import dev.jobqueue.store.JobSchema;

/**
 * Migrates the queue's tables on MySQL; processes that start together all come up, migrated once: Flyway holds a
 * named lock ({@code GET_LOCK}) of the schema for the whole run, so the others wait for it and then find the
 * migrations applied.
 */
final class MysqlSchema {

	private MysqlSchema() {
	}

	static void migrate(DataSource dataSource) {
		Flyway flyway = JobSchema.flyway(dataSource, MysqlJobStore.VENDOR);
		flyway.migrate();
	}
}
