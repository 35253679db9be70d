package dev.jobqueue.faults;

/** Scenario 21 on MariaDB. */
class MysqlWorkflowWorkerKilledFaultTest extends WorkflowWorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new MysqlFaultDatabase();
	}
}
