package dev.jobqueue.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import dev.jobqueue.BatchCounts;
import dev.jobqueue.JobState;
import dev.jobqueue.store.BatchStore;
import dev.jobqueue.store.DependencyStore;
import dev.jobqueue.store.Transition;

/**
 * Settles batches ({@link BatchStore}) for the {@link DependencyPromoter}, on its thread: the batches of jobs that
 * ended, and those the sweep walks. A batch is finished once none of its jobs is unfinished. Looking for one costs
 * little: the look starts at the lowest unfinished job the last look found, kept per batch, since a finished job
 * stays finished; only a look that finds none counts the batch's jobs by state, from the first, and finishes it,
 * recording the counts, in the transaction that settles its callbacks. The batch's row is finished once, so its
 * callbacks are settled once, whichever node saw the last job end; a failure callback is settled by whichever node
 * sees a dead job first, its write fenced by {@code state = 'waiting'}.
 */
final class BatchSettler {

	/** How many batches' lowest unfinished jobs are remembered; a batch forgotten starts its next look over. */
	private static final int REMEMBERED_BATCHES = 1000;

	/** What settling did to callbacks: those promoted, to wake their queues, and those cancelled. */
	record Settled(List<BatchStore.Callback> promoted, List<Long> cancelled) {
	}

	private final BatchStore batches;

	private final DependencyStore dependencies;

	/** Where each batch's next look starts; only the promoter's thread reads and writes it. */
	private final Map<Long, Long> unfinishedFrom = new LinkedHashMap<>(16, 0.75f, true) {
		@Override
		protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
			return size() > REMEMBERED_BATCHES;
		}
	};

	BatchSettler(BatchStore batches, DependencyStore dependencies) {
		this.batches = batches;
		this.dependencies = dependencies;
	}

	/** Settles the batches these jobs, which ended, belong to. */
	Settled ended(Collection<Long> jobIds) {
		Map<Long, Boolean> failedByBatch = new LinkedHashMap<>();
		for (BatchStore.Row row : batches.rowsOf(jobIds)) {
			if (row.role() == BatchStore.Role.member) {
				failedByBatch.merge(row.batchId(), row.state() == JobState.dead, Boolean::logicalOr);
			}
		}
		Settled settled = new Settled(new ArrayList<>(), new ArrayList<>());
		failedByBatch.forEach((batchId, failed) -> settle(batchId, failed, settled));
		return settled;
	}

	/**
	 * Settles these batches, as the sweep finds them: a dead job is looked for only while a failure callback
	 * waits, since no worker may have seen it end (reaped dead, or its node died).
	 */
	Settled sweep(Collection<Long> batchIds) {
		Settled settled = new Settled(new ArrayList<>(), new ArrayList<>());
		for (long batchId : batchIds) {
			boolean failureWaits = batches.waitingCallbacks(batchId).stream()
				.anyMatch(callback -> callback.role() == BatchStore.Role.on_failure);
			settle(batchId, failureWaits && batches.anyDead(batchId), settled);
		}
		return settled;
	}

	private void settle(long batchId, boolean failed, Settled settled) {
		OptionalLong unfinished = batches.firstUnfinished(batchId, unfinishedFrom.getOrDefault(batchId, 0L));
		if (unfinished.isPresent()) {
			unfinishedFrom.put(batchId, unfinished.getAsLong());
			if (failed) {
				callbacks(batchId, false, true, settled);
			}
			return;
		}
		unfinishedFrom.remove(batchId);
		BatchCounts counts = batches.count(batchId).orElse(null);
		if (counts == null) {
			return;
		}
		if (!counts.finished()) {
			if (failed || counts.dead() > 0) {
				callbacks(batchId, false, true, settled);
			}
			return;
		}
		batches.inOneTransaction(() -> {
			if (batches.finish(counts)) {
				callbacks(batchId, true, counts.dead() > 0, settled);
			}
			return null;
		});
	}

	private void callbacks(long batchId, boolean finished, boolean failed, Settled settled) {
		for (BatchStore.Callback callback : batches.waitingCallbacks(batchId)) {
			Transition event = Transition.ofBatchCallback(callback.role(), finished, failed).orElse(null);
			if (event == Transition.PROMOTE_WAITING && dependencies.promote(callback.jobId())) {
				settled.promoted().add(callback);
			}
			else if (event == Transition.CANCEL_WAITING
					&& dependencies.cancel(callback.jobId(), "batch " + batchId + " finished without a dead job")) {
				settled.cancelled().add(callback.jobId());
			}
		}
	}
}
