package dev.jobqueue.faults;

/** The invariants' checks, each failing on a hand-made violation, on MySQL or MariaDB. */
class MysqlInvariantsTest extends InvariantsTest {

	@Override
	FaultDatabase newDatabase() {
		return new MysqlFaultDatabase();
	}
}
