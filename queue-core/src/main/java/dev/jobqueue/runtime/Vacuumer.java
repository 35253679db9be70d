package dev.jobqueue.runtime;

import dev.jobqueue.store.MaintenanceStore;

/**
 * Keeps the job table vacuumed where the database leaves dead row versions behind (PostgreSQL): every
 * claim steps over the dead entries at the front of the ready index, so without this the queue slows
 * down as it works. Runs on the node that holds the maintenance lease; the store's VACUUM skips the table
 * while another one holds it, for the moment a lease changes hands.
 */
final class Vacuumer {

	/**
	 * A claim's cost grows with the number of dead index entries it steps over, not with the size of the
	 * table, so the threshold is a count rather than autovacuum's fraction of the table. A thousand dead
	 * rows (five hundred jobs: each is claimed and completed) fill a handful of index pages, which a claim
	 * reads in no time, while a VACUUM reads every page of the table that changed and may read each of its
	 * indexes whole; below this it would cost more than it saves. An idle table has none and is left alone.
	 */
	static final long DEAD_ROW_THRESHOLD = 1_000;

	private final MaintenanceStore store;

	Vacuumer(MaintenanceStore store) {
		this.store = store;
	}

	/** Returns whether the table was vacuumed. */
	boolean runOnce() {
		return store.vacuumIfBloated(DEAD_ROW_THRESHOLD);
	}
}
