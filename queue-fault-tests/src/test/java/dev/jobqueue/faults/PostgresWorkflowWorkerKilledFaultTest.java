package dev.jobqueue.faults;

/** Scenario 21 on PostgreSQL. */
class PostgresWorkflowWorkerKilledFaultTest extends WorkflowWorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
