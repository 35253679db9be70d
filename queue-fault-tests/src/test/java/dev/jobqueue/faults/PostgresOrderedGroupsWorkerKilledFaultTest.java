package dev.jobqueue.faults;

/** Scenario 13 on PostgreSQL. */
class PostgresOrderedGroupsWorkerKilledFaultTest extends OrderedGroupsWorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
