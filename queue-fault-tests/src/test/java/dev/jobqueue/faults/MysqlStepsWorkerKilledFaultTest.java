package dev.jobqueue.faults;

/** Scenario 20 on MariaDB. */
class MysqlStepsWorkerKilledFaultTest extends StepsWorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new MysqlFaultDatabase();
	}
}
