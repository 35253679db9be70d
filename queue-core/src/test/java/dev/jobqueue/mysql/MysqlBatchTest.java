package dev.jobqueue.mysql;

import org.junit.jupiter.api.AfterAll;

import dev.jobqueue.contract.BatchContractTest;
import dev.jobqueue.support.MysqlTestDatabase;
import dev.jobqueue.support.TestDatabase;

class MysqlBatchTest extends BatchContractTest {

	private static TestDatabase database;

	@Override
	protected TestDatabase database() {
		if (database == null) {
			database = new MysqlTestDatabase();
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
