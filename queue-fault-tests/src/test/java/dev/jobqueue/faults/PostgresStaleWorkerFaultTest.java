package dev.jobqueue.faults;

/** Scenario 3 on PostgreSQL. */
class PostgresStaleWorkerFaultTest extends StaleWorkerFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
