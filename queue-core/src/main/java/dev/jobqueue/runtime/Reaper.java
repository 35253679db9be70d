package dev.jobqueue.runtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.JobListener;
import dev.jobqueue.store.MaintenanceStore;

/**
 * Gives back jobs whose worker stopped heartbeating (crashed, paused, cut off): back to ready, or dead
 * when that was their last attempt. It also lets go of the leases of jobs cancelled while they ran whose worker
 * never wrote the handler's end: their slots of their concurrency keys are then free, and the promoter sweeps at once.
 * Runs on the node that holds the maintenance lease; the store makes
 * concurrent reapers safe all the same, for the moment a lease changes hands.
 */
final class Reaper {

	private static final Logger log = LoggerFactory.getLogger(Reaper.class);

	static final int BATCH = 500;

	private final MaintenanceStore store;

	private final JobListener listener;

	private final Runnable slotsFreed;

	Reaper(MaintenanceStore store, JobListener listener, Runnable slotsFreed) {
		this.store = store;
		this.listener = listener;
		this.slotsFreed = slotsFreed;
	}

	/** Returns how many jobs were reaped. */
	int runOnce() {
		int total = 0;
		int reaped;
		do {
			reaped = store.reapExpired(BATCH);
			total += reaped;
		}
		while (reaped == BATCH);
		if (total > 0) {
			log.info("Reaped {} job(s) whose lease expired", total);
			slotsFreed.run();
			listener.onReaped(total);
		}
		endExpiredCancels();
		return total;
	}

	private void endExpiredCancels() {
		int total = 0;
		int ended;
		do {
			ended = store.endExpiredCancels(BATCH);
			total += ended;
		}
		while (ended == BATCH);
		if (total > 0) {
			log.info("Let go of the expired leases of {} job(s) cancelled while they ran; their handlers' ends were "
					+ "never written", total);
			slotsFreed.run();
		}
	}
}
