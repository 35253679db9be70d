package dev.jobqueue.faults;

/** Scenario 17 on PostgreSQL. */
class PostgresSkewedClocksScheduleFaultTest extends SkewedClocksScheduleFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
