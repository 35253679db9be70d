package dev.jobqueue.faults;

/** Scenario 1 on MySQL or MariaDB. */
class MysqlWorkerKilledFaultTest extends WorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new MysqlFaultDatabase();
	}
}
