package dev.jobqueue.faults;

/** Lost claim answers on MySQL or MariaDB: the answers of the locking claim's commits. */
class MysqlLostClaimAnswerFaultTest extends LostClaimAnswerFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new MysqlFaultDatabase();
	}
}
