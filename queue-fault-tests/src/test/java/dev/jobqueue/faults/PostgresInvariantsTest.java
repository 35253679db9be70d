package dev.jobqueue.faults;

/** The invariants' checks, each failing on a hand-made violation, on PostgreSQL. */
class PostgresInvariantsTest extends InvariantsTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}
}
