package dev.jobqueue.faults;

/** Scenario 22 on PostgreSQL. */
class PostgresBatchWorkerKilledFaultTest extends BatchWorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
