package dev.jobqueue.store.postgres.support;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Sends {@code pg_notify('jobqueue_ready', queue)} for enqueued jobs outside the enqueuing transactions, at
 * most once per queue per interval from this store. PostgreSQL serializes the commits of transactions that
 * notify on one cluster-wide lock of its notification queue, so a notification in every enqueue made
 * concurrent enqueues commit one at a time (decision record 017 has the measurement). Here a notification is
 * asked for after the enqueue commits and a thread of this notifier sends them: the first at once, those that
 * come while it sends or within the interval after it gathered into one statement sent when the interval is up. A listener therefore hears of a job at most an interval
 * after its commit, and a busy one does not need to: it claims again as soon as a batch is done.
 *
 * <p>The thread starts when there is something to send and ends when nothing came for a while, so a store
 * needs no closing. A notification that fails to send is dropped with a warning: listeners still poll.
 */
public final class PostgresReadyNotifier {

	private static final Logger log = LoggerFactory.getLogger(PostgresReadyNotifier.class);

	/** How long the thread waits for more before it ends. */
	private static final Duration IDLE = Duration.ofSeconds(5);

	private final JdbcClient jdbc;

	private final long intervalNanos;

	private final Set<String> pending = new LinkedHashSet<>();

	private boolean sending;

	public PostgresReadyNotifier(JdbcClient jdbc, Duration interval) {
		this.jdbc = jdbc;
		this.intervalNanos = interval.toNanos();
	}

	/**
	 * Asks for a notification of {@code queues} once the transaction under way commits (none if it rolls
	 * back), or now without one. A transaction asks once per queue however many jobs it enqueues: Spring
	 * keeps a transaction's synchronizations in a set, and two {@link QueueCommit}s of a queue are equal.
	 */
	public void notifyAfterCommit(Collection<String> queues) {
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			queues.forEach(queue -> TransactionSynchronizationManager.registerSynchronization(new QueueCommit(this, queue)));
		}
		else if (!queues.isEmpty()) {
			request(queues);
		}
	}

	private record QueueCommit(PostgresReadyNotifier notifier, String queue) implements TransactionSynchronization {

		@Override
		public void afterCommit() {
			notifier.request(Set.of(queue));
		}
	}

	private synchronized void request(Collection<String> queues) {
		pending.addAll(queues);
		if (sending) {
			notifyAll();
			return;
		}
		sending = true;
		Thread thread = new Thread(this::sendUntilIdle, "jobqueue-notify");
		thread.setDaemon(true);
		thread.start();
	}

	private void sendUntilIdle() {
		try {
			Set<String> queues;
			while (!(queues = awaitPending()).isEmpty()) {
				send(queues);
				TimeUnit.NANOSECONDS.sleep(intervalNanos);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			synchronized (this) {
				sending = false;
			}
		}
	}

	/** The queues asked for since the last send; empty, with the thread marked ended, after a long idle. */
	private synchronized Set<String> awaitPending() throws InterruptedException {
		long deadline = System.nanoTime() + IDLE.toNanos();
		long left;
		while (pending.isEmpty() && (left = deadline - System.nanoTime()) > 0) {
			TimeUnit.NANOSECONDS.timedWait(this, left);
		}
		if (pending.isEmpty()) {
			sending = false;
			return Set.of();
		}
		Set<String> queues = Set.copyOf(pending);
		pending.clear();
		return queues;
	}

	private void send(Set<String> queues) {
		try {
			jdbc.sql("SELECT pg_notify('jobqueue_ready', queue) FROM unnest(CAST(:queues AS text[])) AS queue")
				.param("queues", queues.toArray(String[]::new))
				.query((rs, n) -> 1)
				.list();
		}
		catch (RuntimeException ex) {
			log.warn("Could not notify listeners of jobs in {}; they find them at their next poll", queues, ex);
		}
	}
}
