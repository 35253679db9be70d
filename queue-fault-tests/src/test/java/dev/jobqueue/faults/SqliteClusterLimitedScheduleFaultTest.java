package dev.jobqueue.faults;

/** Scenario 16 on SQLite (a file shared by the worker JVMs). */
class SqliteClusterLimitedScheduleFaultTest extends ClusterLimitedScheduleFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new SqliteFaultDatabase();
	}
}
