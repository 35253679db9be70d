package dev.jobqueue.faults;

/** Scenario 5 on MySQL or MariaDB. */
class MysqlGracefulShutdownFaultTest extends GracefulShutdownFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new MysqlFaultDatabase();
	}
}
