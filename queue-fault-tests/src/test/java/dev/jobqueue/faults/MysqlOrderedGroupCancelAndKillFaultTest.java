package dev.jobqueue.faults;

/** Scenario 15 on MySQL or MariaDB. */
class MysqlOrderedGroupCancelAndKillFaultTest extends OrderedGroupCancelAndKillFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new MysqlFaultDatabase();
	}
}
