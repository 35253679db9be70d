package dev.jobqueue.faults;

/** Scenario 20 on PostgreSQL. */
class PostgresStepsWorkerKilledFaultTest extends StepsWorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
