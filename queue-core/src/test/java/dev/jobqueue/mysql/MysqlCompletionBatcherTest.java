package dev.jobqueue.mysql;

import org.junit.jupiter.api.AfterAll;

import dev.jobqueue.runtime.CompletionBatcherContractTest;
import dev.jobqueue.support.MysqlTestDatabase;
import dev.jobqueue.support.TestDatabase;

class MysqlCompletionBatcherTest extends CompletionBatcherContractTest {

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
