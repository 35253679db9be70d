package dev.jobqueue.faults;

/** Scenario 16 on PostgreSQL. */
class PostgresClusterLimitedScheduleFaultTest extends ClusterLimitedScheduleFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
