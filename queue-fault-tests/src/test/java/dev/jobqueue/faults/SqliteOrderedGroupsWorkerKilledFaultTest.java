package dev.jobqueue.faults;

/** Scenario 13 on SQLite (a file shared by the worker JVMs). */
class SqliteOrderedGroupsWorkerKilledFaultTest extends OrderedGroupsWorkerKilledFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new SqliteFaultDatabase();
	}
}
