package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.store.ClaimStore;
import dev.jobqueue.store.ClaimedJob;

/**
 * Claims jobs of one queue, of the kinds this node serves, for as many threads as are free, and as many more as
 * the queue's prefetch lets wait for a thread, in one statement, confirms the claim of those that get a thread at
 * once (see {@link #confirm}) and hands the jobs to the queue's workers, whose pool keeps the others in line: each
 * of those confirms its start as a thread takes it up ({@link JobRunner}).
 * Sleeps until the next job it could take is due (asked of the database after each pass), until woken
 * (a local enqueue, a retry due soon, a notification, a freed slot after a full claim), or until the poll
 * interval passes, whichever comes first.
 */
final class QueuePoller {

	private static final Logger log = LoggerFactory.getLogger(QueuePoller.class);

	/** The shortest sleep before claiming a job that is due already but was not claimed. */
	static final Duration MIN_PAUSE = Duration.ofMillis(5);

	private final String queue;

	/** The queue's threads: how many of its jobs run at once; changed by {@link #resize}. */
	private volatile int threads;

	/** The queue's threads plus its prefetch: how many claimed jobs this node holds at most, running or in line. */
	private volatile int capacity;

	private final HandlerRegistry handlers;

	private final String owner;

	private final Duration lease;

	private final ClaimStore store;

	private final JobRunner runner;

	private final Executor workers;

	/** The jobs claimed and not yet finished, running or in line for a thread. */
	private final AtomicInteger busy = new AtomicInteger();

	private final WakeSignal signal = new WakeSignal();

	private final RoleLiveness liveness;

	/** How long the poller sleeps after its last pass; read and written by the poller's thread only. */
	private Duration pause = Duration.ZERO;

	/** Whether the last claim took all it asked for: then more jobs are likely waiting. */
	private volatile boolean saturated;

	/**
	 * Whether a claim that confirmed itself failed, and its confirmation is still to be taken back before the next
	 * claim; read and written by the poller's thread only.
	 */
	private boolean takeBackOwed;

	/** How long the last claim took, from send to answer; read and written by the poller's thread only. */
	private long lastClaimNanos;

	/** Whether the poller is asleep between passes, where only a wake or its pause makes it claim. */
	private volatile boolean asleep;

	/**
	 * @param workers runs the jobs handed over on {@code threads} threads, in the order handed over, the others
	 * waiting in line
	 */
	QueuePoller(String queue, int threads, int capacity, HandlerRegistry handlers, String owner, Duration lease,
			ClaimStore store, JobRunner runner, Executor workers, RoleLiveness liveness) {
		this.queue = queue;
		this.threads = threads;
		this.capacity = capacity;
		this.handlers = handlers;
		this.owner = owner;
		this.lease = lease;
		this.store = store;
		this.runner = runner;
		this.workers = workers;
		this.liveness = liveness;
	}

	String queue() {
		return queue;
	}

	/**
	 * From the next pass on, claims for {@code threads} threads and {@code capacity} places: woken, so that new
	 * places are claimed for at once. Jobs this node holds beyond a smaller capacity run on; none is claimed until
	 * fewer are held.
	 */
	void resize(int threads, int capacity) {
		this.threads = threads;
		this.capacity = capacity;
		signal.wake();
	}

	/** The poller's name in {@link RoleLiveness}: its claim passes are what health watches. */
	String role() {
		return "claim " + queue;
	}

	/**
	 * Claims for the free places (the free threads, and the prefetch's places in line that no claimed job holds)
	 * and hands the jobs to the workers; returns how many were claimed.
	 */
	int runOnce() {
		int held = busy.get();
		int free = capacity - held;
		if (free <= 0) {
			return 0;
		}
		// The line is first in, first out: while the node holds fewer jobs than threads none waits, and the first
		// jobs of this claim take the threads left at once (no more than it claims, should a resize fall between the
		// two reads).
		int startAtOnce = Math.max(0, Math.min(free, threads - held));
		// The lease is granted until at least the claim's send time + lease: the local fence counts from here.
		long sentAt = System.nanoTime();
		Claim claim = claim(free, startAtOnce);
		lastClaimNanos = System.nanoTime() - sentAt;
		List<ClaimedJob> jobs = claim.jobs();
		saturated = jobs.size() == free;
		for (int i = 0; i < jobs.size(); i++) {
			Execution execution = runner.accept(jobs.get(i), sentAt, i < claim.confirmed());
			busy.incrementAndGet();
			workers.execute(() -> {
				try {
					runner.run(execution);
				}
				finally {
					busy.decrementAndGet();
					if (saturated) {
						signal.wake();
					}
				}
			});
		}
		return jobs.size();
	}

	/** The jobs of a claim, in claim order, of which the first {@code confirmed} are confirmed. */
	private record Claim(List<ClaimedJob> jobs, int confirmed) {
	}

	/**
	 * Claims up to {@code free} jobs, the first {@code startAtOnce} of them, which get a thread at once, confirmed
	 * before any of their handlers starts: by the claim's own update when the claim takes no job for the line, by a
	 * statement of its own otherwise. Only the kinds served here: a job of another kind waits, untouched, for a node
	 * that serves it.
	 */
	private Claim claim(int free, int startAtOnce) {
		if (takeBackOwed) {
			takeBack();
		}
		if (free <= startAtOnce) {
			List<ClaimedJob> jobs;
			try {
				jobs = store.claim(queue, handlers.servedVersions(), free, owner, lease, true);
			}
			catch (RuntimeException ex) {
				takeBackOwed = true;
				takeBackAfter(ex);
				throw ex;
			}
			return new Claim(jobs, jobs.size());
		}
		List<ClaimedJob> jobs = store.claim(queue, handlers.servedVersions(), free, owner, lease, false);
		List<ClaimedJob> starting = jobs.subList(0, Math.min(jobs.size(), startAtOnce));
		return new Claim(jobs, confirm(starting) ? starting.size() : 0);
	}

	/**
	 * A claim that confirmed itself failed, and may have committed with its answer lost: its jobs then run nowhere
	 * until their leases expire, and the reaper must give their attempts back. At once, on a connection of its own;
	 * a take-back that fails too is tried again before the next claim, which the same outage would refuse anyway.
	 */
	private void takeBackAfter(RuntimeException failure) {
		try {
			takeBack();
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
		}
	}

	/** This poller is the only claimer of its queue for its owner: a running job there that it does not hold is lost. */
	private void takeBack() {
		store.takeBackConfirmations(owner, queue, runner.held());
		takeBackOwed = false;
	}

	/**
	 * Tells the database that the claim's answer arrived for the jobs that start at once, before any of their
	 * handlers starts, in one statement. The reaper counts the attempt of a confirmed claim only: a claim whose
	 * answer the network lost costs no attempt, nor does a job that waited in line on a node that died, while a
	 * job that brings its worker down as soon as it starts still uses one per run. A confirmation that fails
	 * changes nothing else: the jobs confirm their starts as their threads take them up, as jobs in line do.
	 * Returns whether it was confirmed.
	 */
	private boolean confirm(List<ClaimedJob> jobs) {
		if (jobs.isEmpty()) {
			return true;
		}
		try {
			store.confirm(owner, jobs.stream().map(ClaimedJob::lease).toList());
			return true;
		}
		catch (RuntimeException ex) {
			log.warn("Could not confirm a claim of {} job(s) of queue '{}'; their threads will: {}", jobs.size(),
					queue, ex.toString());
			keepInterrupt(ex);
			return false;
		}
	}

	/** A stop that interrupted the confirmation must still end the loop, whatever the store made of it. */
	private static void keepInterrupt(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Polls until the thread is interrupted; a pass that fails, whatever it throws, is tried again. After a
	 * claim that took all it asked for it claims again at once; otherwise it sleeps until the next job it
	 * could take is due ({@link #untilNextDue}), or until woken.
	 */
	void loop(Duration pollInterval) {
		while (!Thread.currentThread().isInterrupted()) {
			if (!liveness.pass(role(), () -> pause = pass(pollInterval), pollInterval)) {
				sleep(pollInterval);
			}
			else if (!pause.isZero()) {
				asleep = true;
				try {
					await(pause);
				}
				finally {
					asleep = false;
				}
			}
		}
	}

	/** One claim, then how long to sleep: none after a full claim, beyond {@link #gather(Duration)}. */
	private Duration pass(Duration pollInterval) {
		int claimed = runOnce();
		if (claimed > 0 && saturated) {
			gather(pollInterval);
			return Duration.ZERO;
		}
		return untilNextDue(pollInterval);
	}

	/**
	 * After a full claim, waits until half of the places are free, or at most as long as that claim took,
	 * before the next. Claiming again at once asked for the few threads that had finished meanwhile, and the
	 * claims alternated between large and small (28 then 4, 20 then 12 in MariaDB's slow log), each costing the
	 * database about as much as a large one: the wait halves the claims of a drain, and it costs at most one
	 * claim's time, which the poller would have spent on claiming for those few threads. Never longer than the
	 * poll interval: a claim that a stalled database held for a minute is no measure of the next one.
	 */
	private void gather(Duration pollInterval) {
		long deadline = System.nanoTime() + Math.min(lastClaimNanos, pollInterval.toNanos());
		try {
			while (capacity - busy.get() < (capacity + 1) / 2) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					return;
				}
				signal.await(Duration.ofNanos(left));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * How long until the next job this poller could take is due, by the database's clock, at most the poll
	 * interval, which also bounds what the database is asked to look at. A poller whose places are all taken
	 * does not ask: a finishing job wakes it. A job due already (another claim held it a moment ago) is
	 * claimed after {@link #MIN_PAUSE}, so that a row some transaction keeps locked cannot make the poller
	 * spin.
	 */
	Duration untilNextDue(Duration pollInterval) {
		if (busy.get() >= capacity) {
			return pollInterval;
		}
		return store.nextDueWithin(queue, handlers.servedVersions(), pollInterval)
			.map(due -> due.compareTo(MIN_PAUSE) < 0 ? MIN_PAUSE : due.compareTo(pollInterval) > 0 ? pollInterval : due)
			.orElse(pollInterval);
	}

	private void await(Duration pollInterval) {
		try {
			signal.await(pollInterval);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	void wake() {
		signal.wake();
	}

	/**
	 * Whether a wake would make this poller claim now: it is asleep and has a free place. A poller that is
	 * claiming, or waiting for its threads, looks at the queue again by itself.
	 */
	boolean wantsWake() {
		return asleep && busy.get() < capacity;
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}
}
