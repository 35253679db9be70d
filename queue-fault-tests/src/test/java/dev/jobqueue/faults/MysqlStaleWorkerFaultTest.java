package dev.jobqueue.faults;

/** Scenario 3 on MySQL or MariaDB. */
class MysqlStaleWorkerFaultTest extends StaleWorkerFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new MysqlFaultDatabase();
	}
}
