package dev.jobqueue.faults;

/** Scenario 3 on SQLite (a file shared by the worker JVMs). */
class SqliteStaleWorkerFaultTest extends StaleWorkerFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new SqliteFaultDatabase();
	}
}
