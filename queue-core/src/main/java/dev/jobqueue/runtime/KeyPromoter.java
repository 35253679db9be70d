package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.store.PromotionStore;

/**
 * Hands on the slots of concurrency keys ({@link PromotionStore#promote}) once the writes that freed a slot or added
 * a blocked job have committed, on a thread of its own: a promotion is a transaction of its own, which the
 * caller's thread could not open while its own transaction still holds its connection (a pool of one would
 * wait for ever), and the caller need not wait for it. Keys asked for while a promotion runs go into the next
 * one together. With a sweep interval it also sweeps for slots no promotion followed, while it is the node that
 * maintains (one node's sweep serves the cluster): every sweep interval, on a timer of its own, the next stretch of
 * {@link #SWEEP_KEYS} waiting keys ({@link PromotionStore#promoteWaiting}), taking up where the last stretch ended,
 * so that a turn costs the same at any number of keys; and a whole walk, stretch after stretch, when the reaper or
 * the pruner, which free slots without knowing their keys, ask for one ({@link #sweepSoon}). A failed promotion is
 * logged; the sweep of the maintaining node takes it up.
 */
public final class KeyPromoter implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(KeyPromoter.class);

	/** How many waiting keys one stretch of the sweep examines. */
	static final int SWEEP_KEYS = 1000;

	private final PromotionStore store;

	private final Consumer<String> wakeup;

	private final Duration sweepInterval;

	private final BooleanSupplier maintaining;

	private final Set<String> pending = new LinkedHashSet<>();

	private Thread thread;

	private boolean closed;

	/** A whole walk asked for before the timer's turn: slots were freed where no key was known. */
	private boolean sweepAsked;

	/** The last key the sweep's last stretch examined, where its next starts; {@code ""} for the first key. */
	private String sweptUpTo = "";

	/** Keys to promote later, by the {@link System#nanoTime()} they are due at: a rate's start leaving its window. */
	private final TreeMap<Long, Set<String>> later = new TreeMap<>();

	/**
	 * @param wakeup told each queue a promotion made jobs ready in
	 * @param sweepInterval how often to sweep, or {@code null} never to
	 * @param maintaining whether this node is the one that sweeps, asked at each sweep interval
	 */
	public KeyPromoter(PromotionStore store, Consumer<String> wakeup, Duration sweepInterval, BooleanSupplier maintaining) {
		this.store = store;
		this.wakeup = wakeup;
		this.sweepInterval = sweepInterval;
		this.maintaining = maintaining;
	}

	/** A promoter that never sweeps: for a node without workers, whose enqueues only promote their own keys. */
	public KeyPromoter(PromotionStore store, Consumer<String> wakeup) {
		this(store, wakeup, null, () -> false);
	}

	/** Promotes these keys once the transaction under way commits, or soon when none is. Nulls are skipped. */
	public void promoteAfterCommit(Collection<String> keys) {
		Set<String> wanted = new LinkedHashSet<>(keys);
		wanted.remove(null);
		if (wanted.isEmpty()) {
			return;
		}
		AfterCommit.run(() -> request(wanted));
	}

	/**
	 * Promotes {@code key} once {@code delay} has passed, on the promoter's thread: for a key with a rate, the moment
	 * a start leaves the rate's window and frees a start for the key's next job, which no write announces.
	 */
	public synchronized void promoteIn(String key, Duration delay) {
		later.computeIfAbsent(System.nanoTime() + delay.toNanos(), at -> new LinkedHashSet<>()).add(key);
		notifyAll();
		start();
	}

	/**
	 * Walks every waiting key now rather than a stretch at the timer's turn, on the promoter's thread, if this node
	 * maintains.
	 */
	public synchronized void sweepSoon() {
		sweepAsked = true;
		notifyAll();
	}

	/** Starts the thread, which sweeps a stretch at once and then every sweep interval, while maintaining. */
	public synchronized void start() {
		if (thread == null && !closed) {
			thread = new NamedThreads("jobqueue-key-promoter").newThread(this::loop);
			thread.start();
		}
	}

	/** A walk over every waiting key, stretch after stretch, on the caller's thread. */
	static void sweepAll(PromotionStore store) {
		String after = "";
		do {
			after = store.promoteWaiting(after, SWEEP_KEYS).lastKey();
		}
		while (after != null);
	}

	/** The sweep's next stretch, from where the last ended; returns whether it reached the last waiting key. */
	private boolean sweepStretch() {
		PromotionStore.Stretch stretch = store.promoteWaiting(sweptUpTo, SWEEP_KEYS);
		stretch.queues().forEach(wakeup);
		sweptUpTo = stretch.lastKey() == null ? "" : stretch.lastKey();
		return stretch.lastKey() == null;
	}

	private synchronized void request(Set<String> keys) {
		pending.addAll(keys);
		notifyAll();
		start();
	}

	/**
	 * A whole walk, once asked for, takes a stretch per turn of the loop with no wait between, so that the promotions
	 * asked for meanwhile are served between its stretches.
	 */
	private void loop() {
		long nextSweep = System.nanoTime();
		boolean walking = false;
		while (true) {
			try {
				if (sweepInterval != null && takeSweepAsked()) {
					walking = true;
					sweptUpTo = "";
				}
				boolean due = sweepInterval != null && System.nanoTime() - nextSweep >= 0;
				if (due) {
					nextSweep = System.nanoTime() + sweepInterval.toNanos();
				}
				if (walking || due) {
					boolean reachedEnd = !maintaining.getAsBoolean() || sweepStretch();
					walking = walking && !reachedEnd;
				}
				Set<String> keys = next(walking ? System.nanoTime() : nextSweep);
				if (keys == null) {
					return;
				}
				if (!keys.isEmpty()) {
					store.promote(keys).forEach(wakeup);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (RuntimeException ex) {
				// The next try waits for the sweep's timer: a database that refused this will likely refuse it again.
				walking = false;
				log.warn("Could not hand on the slots of concurrency keys; the next sweep will", ex);
			}
		}
	}

	private synchronized boolean takeSweepAsked() {
		boolean asked = sweepAsked;
		sweepAsked = false;
		return asked;
	}

	/**
	 * The keys asked for since the last promotion; empty once the sweep is due or asked for first; null once closed.
	 * The sweep keeps its own timer, however many promotions are asked for meanwhile: the slots it finds (freed by a
	 * node that stopped before it promoted, a promotion that failed) wait no longer than a walk of stretches, one
	 * per sweep interval, under any load, and those a reap or a prune frees no longer than one whole walk.
	 */
	private synchronized Set<String> next(long sweepAt) throws InterruptedException {
		long deadline = sweepInterval == null ? System.nanoTime() + Long.MAX_VALUE / 2 : sweepAt;
		while (pending.isEmpty() && !closed && !sweepAsked) {
			long now = System.nanoTime();
			while (!later.isEmpty() && later.firstKey() - now <= 0) {
				pending.addAll(later.pollFirstEntry().getValue());
			}
			if (!pending.isEmpty()) {
				break;
			}
			long wake = later.isEmpty() || deadline - later.firstKey() < 0 ? deadline : later.firstKey();
			long left = wake - now;
			if (left <= 0) {
				return Set.of();
			}
			wait(Math.max(1, left / 1_000_000));
		}
		if (closed) {
			return null;
		}
		Set<String> keys = new LinkedHashSet<>(pending);
		pending.clear();
		return keys;
	}

	/**
	 * Stops the thread once the promotion under way, if any, has ended (without interrupting it, which could
	 * cost its connection); keys still pending are left to a sweep.
	 */
	@Override
	public void close() {
		Thread stopping;
		synchronized (this) {
			closed = true;
			notifyAll();
			stopping = thread;
		}
		if (stopping != null) {
			joinQuietly(stopping);
		}
	}

	private static void joinQuietly(Thread thread) {
		try {
			thread.join(Duration.ofSeconds(5).toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}
}
