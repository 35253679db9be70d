package dev.jobqueue.faults;

/** Scenario 15 on PostgreSQL. */
class PostgresOrderedGroupCancelAndKillFaultTest extends OrderedGroupCancelAndKillFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
