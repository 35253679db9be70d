package dev.jobqueue.faults;

/** Scenario 22 on MariaDB. */
class MysqlBatchWorkerKilledFaultTest extends BatchWorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new MysqlFaultDatabase();
	}
}
