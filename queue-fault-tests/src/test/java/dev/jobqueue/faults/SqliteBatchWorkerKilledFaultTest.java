package dev.jobqueue.faults;

/** Scenario 22 on SQLite (a file shared by the worker JVMs). */
class SqliteBatchWorkerKilledFaultTest extends BatchWorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new SqliteFaultDatabase();
	}
}
