package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;

/**
 * Claims jobs of one queue for as many threads as are free, in one statement, and hands them to the
 * queue's workers. Sleeps until woken (a local enqueue, a notification, a freed slot after a full
 * claim) or until the poll interval passes.
 */
final class QueuePoller {

	private static final Logger log = LoggerFactory.getLogger(QueuePoller.class);

	private final String queue;

	private final int concurrency;

	private final String owner;

	private final Duration lease;

	private final JobStore store;

	private final JobRunner runner;

	private final Executor workers;

	private final AtomicInteger busy = new AtomicInteger();

	private final WakeSignal signal = new WakeSignal();

	/** Whether the last claim took all it asked for: then more jobs are likely waiting. */
	private volatile boolean saturated;

	QueuePoller(String queue, int concurrency, String owner, Duration lease, JobStore store, JobRunner runner,
			Executor workers) {
		this.queue = queue;
		this.concurrency = concurrency;
		this.owner = owner;
		this.lease = lease;
		this.store = store;
		this.runner = runner;
		this.workers = workers;
	}

	String queue() {
		return queue;
	}

	/** Claims for the free threads and starts the jobs; returns how many were claimed. */
	int runOnce() {
		int free = concurrency - busy.get();
		if (free <= 0) {
			return 0;
		}
		// The lease is granted until at least the claim's send time + lease: the local fence counts from here.
		long sentAt = System.nanoTime();
		List<ClaimedJob> jobs = store.claim(queue, free, owner, lease);
		saturated = jobs.size() == free;
		for (ClaimedJob job : jobs) {
			Execution execution = runner.accept(job, sentAt);
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

	/** Polls until the thread is interrupted. */
	void loop(Duration pollInterval) {
		while (!Thread.currentThread().isInterrupted()) {
			try {
				if (runOnce() == 0 || !saturated) {
					signal.await(pollInterval);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (RuntimeException ex) {
				log.warn("Claiming jobs of queue '{}' failed; trying again in {}", queue, pollInterval, ex);
				sleep(pollInterval);
			}
		}
	}

	void wake() {
		signal.wake();
	}

	int busy() {
		return busy.get();
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
