package dev.jobqueue.faults;

/** Scenario 11 on PostgreSQL. */
class PostgresLongTransactionalJobFaultTest extends LongTransactionalJobFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
