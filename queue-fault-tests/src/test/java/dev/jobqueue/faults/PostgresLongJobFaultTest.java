package dev.jobqueue.faults;

/** Scenario 4 on PostgreSQL. */
class PostgresLongJobFaultTest extends LongJobFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
