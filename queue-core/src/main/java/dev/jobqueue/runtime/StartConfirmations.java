package dev.jobqueue.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.jobqueue.store.ClaimStore;
import dev.jobqueue.store.Lease;

/**
 * Confirms the starts of jobs that waited in line ({@link ClaimStore#confirmStarts}), group-commit style: a thread
 * that finds no statement in flight sends one for every start pending, itself included; the threads that arrive
 * while it is in flight wait and go in the next one. A busy prefetching queue then pays about one round trip per
 * start, not one per start after every other start.
 */
final class StartConfirmations {

	private final ClaimStore store;

	private final String owner;

	/** The starts that wait for the next statement. */
	private Batch next = new Batch();

	private boolean sending;

	StartConfirmations(ClaimStore store, String owner) {
		this.store = store;
		this.owner = owner;
	}

	/**
	 * Whether the start of {@code lease} was confirmed: false when its lease was lost or its job is paused.
	 * Waits through interrupts, which stay set: the statement is short, and bounded by the store's timeout.
	 *
	 * @throws RuntimeException what the statement that carried it threw
	 */
	boolean confirm(Lease lease) {
		Batch mine;
		boolean leads;
		boolean interrupted = false;
		synchronized (this) {
			mine = next;
			mine.leases.add(lease);
			while (sending && !mine.done) {
				try {
					wait();
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
			leads = !mine.done;
			if (leads) {
				sending = true;
				next = new Batch();
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
		if (leads) {
			send(mine);
		}
		return mine.confirmed(lease);
	}

	/** Sends the batch on this thread; then the next batch's first waiter sends that one. */
	private void send(Batch batch) {
		Set<Lease> confirmed = null;
		RuntimeException failure = null;
		try {
			confirmed = store.confirmStarts(owner, batch.leases);
		}
		catch (RuntimeException ex) {
			failure = ex;
		}
		synchronized (this) {
			batch.confirmed = confirmed;
			batch.failure = failure;
			batch.done = true;
			sending = false;
			notifyAll();
		}
	}

	/** The starts of one statement; written under the monitor, read after {@code done} was seen under it. */
	private static final class Batch {

		private final List<Lease> leases = new ArrayList<>();

		private boolean done;

		private Set<Lease> confirmed;

		private RuntimeException failure;

		boolean confirmed(Lease lease) {
			if (failure != null) {
				throw failure;
			}
			return confirmed.contains(lease);
		}
	}
}
