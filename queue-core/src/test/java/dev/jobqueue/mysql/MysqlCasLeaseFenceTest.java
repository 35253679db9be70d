package dev.jobqueue.mysql;

import org.junit.jupiter.api.AfterAll;

import dev.jobqueue.contract.LeaseFenceContractTest;
import dev.jobqueue.store.mysql.support.MysqlClaimMethod;
import dev.jobqueue.support.MysqlTestDatabase;
import dev.jobqueue.support.TestDatabase;

/** The contract with the compare-and-set claim of servers without SKIP LOCKED, forced on this one. */
class MysqlCasLeaseFenceTest extends LeaseFenceContractTest {

	private static TestDatabase database;

	@Override
	protected TestDatabase database() {
		if (database == null) {
			database = new MysqlTestDatabase(MysqlClaimMethod.COMPARE_AND_SET);
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
