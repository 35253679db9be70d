package dev.jobqueue.faults;

/** Scenario 11 on SQLite (a file shared by the worker JVMs). */
class SqliteLongTransactionalJobFaultTest extends LongTransactionalJobFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new SqliteFaultDatabase();
	}
}
