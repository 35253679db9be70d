package dev.jobqueue.postgres;

import org.junit.jupiter.api.AfterAll;

import dev.jobqueue.contract.BatchContractTest;
import dev.jobqueue.support.PostgresTestDatabase;
import dev.jobqueue.support.TestDatabase;

class PostgresBatchTest extends BatchContractTest {

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
