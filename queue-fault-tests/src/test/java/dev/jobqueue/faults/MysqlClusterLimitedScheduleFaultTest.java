package dev.jobqueue.faults;

/** Scenario 16 on MySQL or MariaDB. */
class MysqlClusterLimitedScheduleFaultTest extends ClusterLimitedScheduleFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new MysqlFaultDatabase();
	}
}
