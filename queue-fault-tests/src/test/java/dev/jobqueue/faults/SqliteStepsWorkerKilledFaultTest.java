package dev.jobqueue.faults;

/** Scenario 20 on SQLite (a file shared by the worker JVMs). */
class SqliteStepsWorkerKilledFaultTest extends StepsWorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new SqliteFaultDatabase();
	}
}
