package dev.jobqueue.postgres;

import org.junit.jupiter.api.AfterAll;

import dev.jobqueue.contract.WorkflowContractTest;
import dev.jobqueue.support.PostgresTestDatabase;
import dev.jobqueue.support.TestDatabase;

class PostgresWorkflowTest extends WorkflowContractTest {

	private static TestDatabase database;

	@Override
	protected TestDatabase database() {
		if (database == null) {
			database = new PostgresTestDatabase();
		}
		return database;
	}

	@AfterAll
	static void closeDatabase() {
		if (database != null) {
			database.close();
			database = null;
		}
	}
}
