package dev.jobqueue.faults;

/** Scenario 1 on PostgreSQL. */
class PostgresWorkerKilledFaultTest extends WorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
