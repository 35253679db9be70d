package dev.jobqueue.mysql;

import org.junit.jupiter.api.AfterAll;

import dev.jobqueue.contract.EnqueueContractTest;
import dev.jobqueue.support.MysqlTestDatabase;
import dev.jobqueue.support.TestDatabase;

/** The contract through the driver the other tests do not use (MySQL Connector/J against MariaDB). */
class MysqlOtherDriverEnqueueTest extends EnqueueContractTest {

	private static TestDatabase database;

	@Override
	protected TestDatabase database() {
		if (database == null) {
			database = new MysqlTestDatabase(MysqlTestDatabase.otherDriverUrl(), 32, null);
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
