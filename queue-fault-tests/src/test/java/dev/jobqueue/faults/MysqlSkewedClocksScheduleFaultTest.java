package dev.jobqueue.faults;

/** Scenario 17 on MySQL or MariaDB. */
class MysqlSkewedClocksScheduleFaultTest extends SkewedClocksScheduleFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new MysqlFaultDatabase();
	}
}
