package dev.jobqueue.faults;

/** The invariants' checks, each failing on a hand-made violation, on SQLite. */
class SqliteInvariantsTest extends InvariantsTest {

	@Override
	FaultDatabase newDatabase() {
		return new SqliteFaultDatabase();
	}
}
