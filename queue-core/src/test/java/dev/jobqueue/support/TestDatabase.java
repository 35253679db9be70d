package dev.jobqueue.support;

import javax.sql.DataSource;

import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.TestHooks;

/** A real database for the contract tests: migrated, emptied between tests, closed at the end. */
public interface TestDatabase extends AutoCloseable {

	/** The kind {@link #refusePoison()} refuses. */
	String POISON = "poison";

	DataSource dataSource();

	JobStore store();

	/** The statements only tests send, on {@link #dataSource()}, the store's own. */
	default TestHooks testHooks() {
		return JobStores.dialect(store().vendor()).testHooks(dataSource());
	}

	/**
	 * Deletes every job, schedule, pause, maintenance lease and node, so that each test starts from an empty queue, and
	 * lifts {@link #refusePoison()}.
	 */
	void reset();

	/**
	 * Makes the database refuse, as a constraint would, every insert of a job of kind {@link #POISON}:
	 * a failure at the database that passes every check made before the SQL. Until {@link #reset()}.
	 */
	void refusePoison();

	/** How a separate JVM reaches the same database: a JDBC URL. */
	String jdbcUrl();

	@Override
	void close();
}
