package dev.jobqueue.faults;

/** Scenario 1 on SQLite (a file shared by the worker JVMs). */
class SqliteWorkerKilledFaultTest extends WorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new SqliteFaultDatabase();
	}
}
