package dev.jobqueue.faults;

/** Scenario 4 on SQLite (a file shared by the worker JVMs). */
class SqliteLongJobFaultTest extends LongJobFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new SqliteFaultDatabase();
	}
}
