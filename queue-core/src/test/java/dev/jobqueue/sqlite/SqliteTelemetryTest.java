package dev.jobqueue.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import dev.jobqueue.contract.TelemetryContractTest;
import dev.jobqueue.support.SqliteTestDatabase;
import dev.jobqueue.support.TestDatabase;

class SqliteTelemetryTest extends TelemetryContractTest {

	private static TestDatabase database;

	@Override
	protected TestDatabase database() {
		if (database == null) {
			database = new SqliteTestDatabase();
		}
		return database;
	}

	@Test
	void sqliteKeepsNoDeadRowsAndHasNoTableHealth() {
		assertThat(database().store().telemetry().tableHealth()).isEmpty();
	}

	@AfterAll
	static void closeDatabase() {
		if (database != null) {
			database.close();
			database = null;
		}
	}
}
