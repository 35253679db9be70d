package dev.jobqueue.faults;

/** Scenario 15 on SQLite (a file shared by the worker JVMs). */
class SqliteOrderedGroupCancelAndKillFaultTest extends OrderedGroupCancelAndKillFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new SqliteFaultDatabase();
	}
}
