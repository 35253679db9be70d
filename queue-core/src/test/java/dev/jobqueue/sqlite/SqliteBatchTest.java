package dev.jobqueue.sqlite;

import org.junit.jupiter.api.AfterAll;

import dev.jobqueue.contract.BatchContractTest;
import dev.jobqueue.support.SqliteTestDatabase;
import dev.jobqueue.support.TestDatabase;

class SqliteBatchTest extends BatchContractTest {

	private static TestDatabase database;

	@Override
	protected TestDatabase database() {
		if (database == null) {
			database = new SqliteTestDatabase();
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
