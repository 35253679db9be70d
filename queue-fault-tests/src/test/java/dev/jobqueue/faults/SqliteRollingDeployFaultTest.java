package dev.jobqueue.faults;

/** Scenario "rolling deploy" on SQLite (a file shared by the worker JVMs). */
class SqliteRollingDeployFaultTest extends RollingDeployFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new SqliteFaultDatabase();
	}
}
