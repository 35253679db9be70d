package dev.jobqueue.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import dev.jobqueue.contract.TestSupportStoreContractTest;
import dev.jobqueue.support.MysqlTestDatabase;
import dev.jobqueue.support.TestDatabase;

/** The contract, and no deadlock on the server while it runs: InnoDB's own count, not only the log's warnings. */
class MysqlTestSupportStoreTest extends TestSupportStoreContractTest {

	private static MysqlTestDatabase database;

	private long deadlocksBefore;

	@Override
	protected TestDatabase database() {
		if (database == null) {
			database = new MysqlTestDatabase();
		}
		return database;
	}

	@BeforeEach
	void countDeadlocks() {
		deadlocksBefore = ((MysqlTestDatabase) database()).deadlocks();
	}

	@AfterEach
	void noDeadlock() {
		assertThat(database.deadlocks()).as("InnoDB deadlocks during the test").isEqualTo(deadlocksBefore);
	}

	@AfterAll
	static void closeDatabase() {
		if (database != null) {
			database.close();
			database = null;
		}
	}
}
