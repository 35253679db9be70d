package dev.jobqueue.faults;

/** Lost claim answers on PostgreSQL. */
class PostgresLostClaimAnswerFaultTest extends LostClaimAnswerFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
