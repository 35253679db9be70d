package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.store.ClaimStore;
import dev.jobqueue.store.Lease;

/**
 * Extends the leases of the jobs this node is running or holds in line, on its own thread so that a busy or stuck
 * handler cannot starve it. A lease the database no longer grants was taken over, or its job cancelled:
 * the execution is told which, and its thread interrupted. The heartbeat confirms no claim, for a job in line must
 * not be charged its attempt; a started job whose confirmation failed is confirmed by a statement of its own.
 * Each pass then marks the node seen in the node registry, after the leases, which matter more.
 */
final class Heartbeater {

	private static final Logger log = LoggerFactory.getLogger(Heartbeater.class);

	private final ClaimStore store;

	private final InFlightJobs inFlight;

	private final String owner;

	private final Duration lease;

	private final NodeRegistry node;

	Heartbeater(ClaimStore store, InFlightJobs inFlight, String owner, Duration lease, NodeRegistry node) {
		this.store = store;
		this.inFlight = inFlight;
		this.owner = owner;
		this.lease = lease;
		this.node = node;
	}

	/** Returns how many leases were found lost, to another worker or to a cancel. */
	int runOnce() {
		int lost = renewLeases();
		node.runOnce();
		return lost;
	}

	private int renewLeases() {
		// A timed-out execution is not renewed: if its handler ignores the interrupt, its lease runs out
		// and the job runs elsewhere, while the handler keeps its thread here.
		List<Lease> leases = inFlight.executions().stream()
			.filter(execution -> !execution.timedOut())
			.map(Execution::lease)
			.toList();
		if (leases.isEmpty()) {
			return 0;
		}
		// Sent now, so granted until at least now + lease: the watchdog's local fence counts from here.
		long sentAt = System.nanoTime();
		Set<Lease> renewed = store.heartbeat(owner, leases, lease);
		List<Lease> notRenewed = leases.stream().filter(lease -> !renewed.contains(lease)).toList();
		// Asked only when some lease was not renewed, which is rare: a cancel, a lease taken over, or a row the
		// heartbeat passed over because the job's completion held it locked (still held: left to the next pass).
		Set<Lease> stillHeld = notRenewed.isEmpty() ? Set.of() : store.held(owner, notRenewed);
		List<Lease> notHeld = notRenewed.stream().filter(lease -> !stillHeld.contains(lease)).toList();
		Set<Lease> cancelled = notHeld.isEmpty() ? Set.of() : store.cancelled(notHeld);
		for (Lease lease : renewed) {
			Execution execution = inFlight.get(lease);
			if (execution != null) {
				execution.leaseRenewed(sentAt);
			}
		}
		int lost = 0;
		for (Lease lease : notHeld) {
			if (interrupt(lease, cancelled.contains(lease))) {
				lost++;
			}
		}
		confirmStarted(renewed);
		return lost;
	}

	/**
	 * Confirms the started jobs among {@code held} whose claim the database does not hold confirmed: their
	 * confirmation failed (rare), and a reap must count their attempts. A failure is tried again at the next pass.
	 */
	private void confirmStarted(Set<Lease> held) {
		List<Execution> unconfirmed = held.stream()
			.map(inFlight::get)
			.filter(execution -> execution != null && execution.startedUnconfirmed())
			.toList();
		if (unconfirmed.isEmpty()) {
			return;
		}
		try {
			store.confirm(owner, unconfirmed.stream().map(Execution::lease).toList());
			unconfirmed.forEach(Execution::confirmed);
		}
		catch (RuntimeException ex) {
			log.warn("Could not confirm the claims of {} started job(s); the next heartbeat tries again: {}",
					unconfirmed.size(), ex.toString());
		}
	}

	/** Tells the execution of a lease not renewed why, and interrupts it; false when it had finished. */
	private boolean interrupt(Lease lease, boolean cancelled) {
		Execution execution = inFlight.get(lease);
		// An execution that finished meanwhile is no longer in flight; its lease is gone by design.
		if (execution == null) {
			return false;
		}
		if (cancelled) {
			if (execution.cancel()) {
				log.info("Job {} was cancelled while it ran; interrupting its handler", lease.jobId());
				return true;
			}
			return false;
		}
		if (execution.leaseLost()) {
			log.warn("Job {} lost its lease (token {}) to another worker; interrupting its handler", lease.jobId(),
					lease.token());
			return true;
		}
		return false;
	}
}
