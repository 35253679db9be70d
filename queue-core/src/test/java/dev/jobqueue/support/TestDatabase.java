package dev.jobqueue.support;

import javax.sql.DataSource;

import dev.jobqueue.store.JobStore;

/** A real database for the contract tests: migrated, emptied between tests, closed at the end. */
public interface TestDatabase extends AutoCloseable {

	DataSource dataSource();

	JobStore store();

	/** Deletes every job, so that each test starts from an empty queue. */
	void reset();

	/** How a separate JVM reaches the same database: a JDBC URL. */
	String jdbcUrl();

	@Override
	void close();
}
