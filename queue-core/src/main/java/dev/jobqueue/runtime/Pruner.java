package dev.jobqueue.runtime;

import java.time.Duration;

import dev.jobqueue.store.JobStore;

/**
 * Deletes finished jobs past their retention, a thousand at a time so that no statement holds many row locks or runs
 * long next to the claims; then the finished batches left without a job, and the node registry's stale nodes.
 */
final class Pruner {

	static final int BATCH = 1000;

	private final JobStore store;

	private final Duration finishedRetention;

	private final Duration deadRetention;

	private final Runnable slotsFreed;

	Pruner(JobStore store, Duration finishedRetention, Duration deadRetention, Runnable slotsFreed) {
		this.store = store;
		this.finishedRetention = finishedRetention;
		this.deadRetention = deadRetention;
		this.slotsFreed = slotsFreed;
	}

	/** Returns how many jobs were deleted. */
	int runOnce() {
		int total = 0;
		int deleted;
		do {
			deleted = store.maintenance().prune(finishedRetention, deadRetention, BATCH);
			total += deleted;
		}
		while (deleted == BATCH);
		if (total > 0) {
			slotsFreed.run();
			store.batches().prune();
		}
		store.nodes().deleteStaleNodes();
		return total;
	}
}
