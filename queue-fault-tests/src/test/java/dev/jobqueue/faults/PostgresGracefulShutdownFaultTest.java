package dev.jobqueue.faults;

/** Scenario 5 on PostgreSQL. */
class PostgresGracefulShutdownFaultTest extends GracefulShutdownFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
