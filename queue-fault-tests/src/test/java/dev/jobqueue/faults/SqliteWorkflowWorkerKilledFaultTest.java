package dev.jobqueue.faults;

/** Scenario 21 on SQLite (a file shared by the worker JVMs). */
class SqliteWorkflowWorkerKilledFaultTest extends WorkflowWorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new SqliteFaultDatabase();
	}
}
