package dev.jobqueue.faults;

/** Scenario "rolling deploy" on PostgreSQL. */
class PostgresRollingDeployFaultTest extends RollingDeployFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
