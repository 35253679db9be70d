package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;

/**
 * The queues a node works: per queue a poller on a thread of its own and a pool of as many threads as the queue's
 * concurrency. Started and stopped by {@link JobRuntime}, which owns the order of a stop: claims end first, then
 * the pools are given their time.
 */
final class QueueWorkers {

	private final HandlerRegistry handlers;

	private final String owner;

	private final JobStore store;

	private final JobRunner runner;

	private final RoleLiveness liveness;

	private final RuntimeSettings settings;

	/** Written by start and clear, read by {@link #wake} on the threads of listeners and enqueues. */
	private final Map<String, QueuePoller> pollers = new ConcurrentHashMap<>();

	/** Each queue's pool, under its name: resized with its poller. */
	private final Map<String, ThreadPoolExecutor> pools = new ConcurrentHashMap<>();

	private final List<Thread> pollerThreads = new ArrayList<>();

	/**
	 * @param store where the pollers claim: the runtime's own store
	 * @param runner what runs each claimed job on a thread of its queue's pool
	 */
	QueueWorkers(HandlerRegistry handlers, String owner, JobStore store, JobRunner runner, RoleLiveness liveness,
			RuntimeSettings settings) {
		this.handlers = handlers;
		this.owner = owner;
		this.store = store;
		this.runner = runner;
		this.liveness = liveness;
		this.settings = settings;
	}

	/** Starts the queue's pool and its poller, whose claim passes {@link RoleLiveness} watches. */
	void start(String queue, int concurrency) {
		// The pool's line is unbounded: the poller claims no more than its threads and the queue's prefetch.
		ThreadPoolExecutor pool = new ThreadPoolExecutor(concurrency, concurrency, 0, TimeUnit.MILLISECONDS,
				new LinkedBlockingQueue<>(), new NamedThreads("jobqueue-" + queue));
		QueuePoller poller = new QueuePoller(queue, concurrency, concurrency + settings.prefetch(queue), handlers,
				owner, settings.lease(), store.claims(), runner, pool, liveness);
		liveness.watch(poller.role(), settings.pollInterval(), settings.lease());
		Thread thread = new NamedThreads("jobqueue-poller-" + queue).newThread(() -> poller.loop(settings.pollInterval()));
		pools.put(queue, pool);
		pollers.put(queue, poller);
		pollerThreads.add(thread);
		thread.start();
	}

	/**
	 * Gives the started {@code queue} {@code concurrency} threads: the pool's bounds are moved in the order that
	 * keeps the core size within the maximum, and threads beyond a smaller size end as their jobs finish.
	 */
	void resize(String queue, int concurrency) {
		ThreadPoolExecutor pool = pools.get(queue);
		if (concurrency > pool.getMaximumPoolSize()) {
			pool.setMaximumPoolSize(concurrency);
			pool.setCorePoolSize(concurrency);
		}
		else {
			pool.setCorePoolSize(concurrency);
			pool.setMaximumPoolSize(concurrency);
		}
		pollers.get(queue).resize(concurrency, concurrency + settings.prefetch(queue));
	}

	/** Wakes the poller of {@code queue}, if this node works it: a job may be waiting. */
	void wake(String queue) {
		QueuePoller poller = pollers.get(queue);
		if (poller != null) {
			poller.wake();
		}
	}

	/** Whether a wake would make the poller of {@code queue} claim now: it is asleep, with a free thread. */
	boolean wantsWake(String queue) {
		QueuePoller poller = pollers.get(queue);
		return poller != null && poller.wantsWake();
	}

	/** Ends every poller's loop and waits for it, then closes the pools to new jobs: no claim is under way after. */
	void stopClaiming() {
		pollerThreads.forEach(Thread::interrupt);
		pollerThreads.forEach(QueueWorkers::join);
		pools.values().forEach(ExecutorService::shutdown);
	}

	/** Waits up to {@code timeout} for every pool's jobs to finish; true when they all did. */
	boolean awaitJobs(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		boolean finished = true;
		for (ExecutorService pool : pools.values()) {
			finished &= awaitUntil(pool, deadline);
		}
		return finished;
	}

	/** Forgets the stopped queues, so that the next start begins afresh. */
	void clear() {
		pollers.clear();
		pools.clear();
		pollerThreads.clear();
	}

	/** Waits for {@code thread} to end; an interrupt meanwhile stops the wait and stays set. */
	static void join(Thread thread) {
		try {
			thread.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static boolean awaitUntil(ExecutorService pool, long deadlineNanos) {
		try {
			return pool.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}
}
