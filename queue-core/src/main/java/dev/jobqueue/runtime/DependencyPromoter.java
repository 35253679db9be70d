package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.store.BatchStore;
import dev.jobqueue.store.DependencyStore;
import dev.jobqueue.store.Transition;
import dev.jobqueue.store.WaitingJob;

/**
 * Settles the jobs that wait for others ({@link DependencyStore}) and the batches ({@link BatchSettler}) on a thread
 * of its own, started at its first use: the dependents and the batch of a job whose worker saw it end or an operator
 * cancelled, and a job just enqueued to wait, once its enqueue has committed (its dependencies may have finished
 * before). Each is promoted or cancelled as {@link WaitingJob#event()} decides, or left waiting; a cancel settles the
 * cancelled job's own dependents in turn. Settling is idempotent: the writes apply only to a job still waiting, so
 * that two nodes settling one job change it once. With a sweep interval, while this node maintains, it also settles
 * the next {@link #SWEEP_JOBS} waiting jobs and the next {@link #SWEEP_BATCHES} unfinished batches every interval,
 * in id order, taking up where the last stretch ended and starting over after the last, so that a turn costs the
 * same however many jobs wait; the reaper's and the pruner's changes ask for a stretch at once. That settles what no
 * worker saw end: a node that died between a job's end and its dependents' settling, a job reaped dead or cancelled
 * by an operator's bulk cancel, a job enqueued with {@code after} once its dependency had been claimed. A failure is
 * logged; the sweep takes it up.
 */
final class DependencyPromoter implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(DependencyPromoter.class);

	/** How many waiting jobs one stretch of the sweep settles. */
	static final int SWEEP_JOBS = 1000;

	/** How many unfinished batches one stretch of the sweep settles. */
	static final int SWEEP_BATCHES = 100;

	/** How long {@link #close} waits for a statement under way to end. */
	private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

	private final DependencyStore store;

	private final BatchStore batches;

	private final BatchSettler batchSettler;

	private final Consumer<String> wakeup;

	private final Consumer<Collection<String>> promoteKeys;

	private final Duration sweepInterval;

	private final BooleanSupplier maintaining;

	private final Set<Long> finished = new LinkedHashSet<>();

	private final Set<Long> waiting = new LinkedHashSet<>();

	private ScheduledExecutorService executor;

	private boolean drainQueued;

	/** The id the sweep's last stretch ended at, where its next starts; 0 for the first waiting job. */
	private long sweptUpTo;

	/** The same for the unfinished batches. */
	private long batchesSweptUpTo;

	private boolean closed;

	/**
	 * @param wakeup told each queue a promotion made jobs ready in
	 * @param promoteKeys handed the concurrency keys of the jobs a promotion made blocked, to wait for a slot
	 * @param sweepInterval how often to sweep, or {@code null} never to
	 * @param maintaining whether this node is the one that sweeps, asked at each sweep interval
	 */
	DependencyPromoter(DependencyStore store, BatchStore batches, Consumer<String> wakeup,
			Consumer<Collection<String>> promoteKeys, Duration sweepInterval, BooleanSupplier maintaining) {
		this.store = store;
		this.batches = batches;
		this.batchSettler = new BatchSettler(batches, store);
		this.wakeup = wakeup;
		this.promoteKeys = promoteKeys;
		this.sweepInterval = sweepInterval;
		this.maintaining = maintaining;
	}

	/** A promoter that never sweeps: for a node without workers, which settles only the jobs it enqueues. */
	DependencyPromoter(DependencyStore store, BatchStore batches, Consumer<String> wakeup,
			Consumer<Collection<String>> promoteKeys) {
		this(store, batches, wakeup, promoteKeys, null, () -> false);
	}

	/** Starts the sweep's timer, if it has an interval. */
	synchronized void start() {
		if (sweepInterval != null) {
			executor().scheduleWithFixedDelay(this::sweepTurn, sweepInterval.toMillis(), sweepInterval.toMillis(),
					TimeUnit.MILLISECONDS);
		}
	}

	/** Job {@code id}, which jobs or a batch wait for, has finished: its dependents and its batch are settled soon. */
	synchronized void finished(long id) {
		finished.add(id);
		drainSoon();
	}

	/** {@link #finished} once the transaction under way commits, or now when none is: an operator's cancel. */
	void finishedAfterCommit(long id) {
		AfterCommit.run(() -> finished(id));
	}

	/** Settles these newly enqueued waiting jobs once the transaction under way commits, or soon when none is. */
	void settleAfterCommit(Collection<Long> ids) {
		List<Long> enqueued = List.copyOf(ids);
		if (enqueued.isEmpty()) {
			return;
		}
		AfterCommit.run(() -> settleSoon(enqueued));
	}

	/** Sweeps a stretch soon, if this node maintains: jobs ended where no worker saw them (reaped, cancelled). */
	synchronized void sweepSoon() {
		if (sweepInterval != null && !closed) {
			executor().execute(this::sweepTurn);
		}
	}

	private synchronized void settleSoon(List<Long> ids) {
		waiting.addAll(ids);
		drainSoon();
	}

	private void drainSoon() {
		if (!drainQueued && !closed) {
			drainQueued = true;
			executor().execute(this::drain);
		}
	}

	private ScheduledExecutorService executor() {
		if (executor == null) {
			executor = Executors.newSingleThreadScheduledExecutor(new NamedThreads("jobqueue-dependencies"));
		}
		return executor;
	}

	private void drain() {
		List<Long> ended;
		List<Long> enqueued;
		synchronized (this) {
			drainQueued = false;
			ended = List.copyOf(finished);
			enqueued = List.copyOf(waiting);
			finished.clear();
			waiting.clear();
		}
		try {
			Set<Long> candidates = new LinkedHashSet<>(enqueued);
			if (!ended.isEmpty()) {
				candidates.addAll(store.waitingFor(ended));
			}
			settle(candidates);
			if (!ended.isEmpty()) {
				settled(batchSettler.ended(ended));
			}
		}
		catch (RuntimeException ex) {
			log.warn("Could not settle the jobs waiting for jobs {} and {}; the sweep will: {}", ended, enqueued,
					ex.toString());
		}
	}

	private void sweepTurn() {
		if (!maintaining.getAsBoolean()) {
			return;
		}
		try {
			sweptUpTo = stretch(sweptUpTo);
		}
		catch (RuntimeException ex) {
			log.warn("The sweep of waiting jobs failed; the next one tries again: {}", ex.toString());
		}
	}

	/**
	 * Settles the waiting jobs of one stretch after {@code after}, and the unfinished batches of one stretch after
	 * {@link #batchesSweptUpTo}; returns where the next stretch of waiting jobs starts, 0 after the last.
	 */
	private long stretch(long after) {
		List<Long> stretch = store.waitingAfter(after, SWEEP_JOBS);
		settle(stretch);
		List<Long> unfinished = batches.unfinishedAfter(batchesSweptUpTo, SWEEP_BATCHES);
		settled(batchSettler.sweep(unfinished));
		batchesSweptUpTo = unfinished.size() < SWEEP_BATCHES ? 0 : unfinished.get(unfinished.size() - 1);
		return stretch.size() < SWEEP_JOBS ? 0 : stretch.get(stretch.size() - 1);
	}

	/** Wakes the queues of the callbacks promoted, and settles the dependents of those cancelled. */
	private void settled(BatchSettler.Settled settled) {
		Set<String> keys = new LinkedHashSet<>();
		settled.promoted().forEach(callback -> promoted(callback.queue(), callback.concurrencyKey(), keys));
		if (!keys.isEmpty()) {
			promoteKeys.accept(keys);
		}
		if (!settled.cancelled().isEmpty()) {
			settle(store.waitingFor(settled.cancelled()));
		}
	}

	/**
	 * Settles every waiting job on the caller's thread, stretch after stretch, telling no one: for a drain, whose
	 * sweep of concurrency keys follows and promotes the keyed jobs this made blocked.
	 */
	static void sweepAll(DependencyStore store, BatchStore batches) {
		DependencyPromoter promoter = new DependencyPromoter(store, batches, queue -> {
		}, keys -> {
		});
		long after = 0;
		do {
			after = promoter.stretch(after);
		}
		while (after != 0 || promoter.batchesSweptUpTo != 0);
	}

	/** Settles these jobs, then the dependents of those it cancelled, until no cancel leaves more to settle. */
	void settle(Collection<Long> ids) {
		Collection<Long> next = ids;
		while (!next.isEmpty()) {
			List<Long> cancelled = new ArrayList<>();
			Set<String> keys = new LinkedHashSet<>();
			for (WaitingJob job : store.read(next)) {
				Transition event = job.event().orElse(null);
				if (event == Transition.PROMOTE_WAITING && store.promote(job.id())) {
					promoted(job.queue(), job.concurrencyKey(), keys);
				}
				else if (event == Transition.CANCEL_WAITING && store.cancel(job.id(), job.cancelReason())) {
					cancelled.add(job.id());
				}
			}
			if (!keys.isEmpty()) {
				promoteKeys.accept(keys);
			}
			next = cancelled.isEmpty() ? List.of() : store.waitingFor(cancelled);
		}
	}

	private void promoted(String queue, String concurrencyKey, Set<String> keys) {
		if (concurrencyKey == null) {
			wakeup.accept(queue);
		}
		else {
			keys.add(concurrencyKey);
		}
	}

	/**
	 * Stops the thread, waiting up to {@link #CLOSE_WAIT} for a statement under way to end, as the key promoter does:
	 * once closed, nothing of this node reads or writes the tables.
	 */
	@Override
	public void close() {
		ScheduledExecutorService stopping;
		synchronized (this) {
			closed = true;
			stopping = executor;
		}
		if (stopping != null) {
			stopping.shutdownNow();
			try {
				stopping.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}
}
