package dev.jobqueue.runtime;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.JobListener;
import dev.jobqueue.store.MaintenanceStore;

/**
 * Whether this runtime is the node that runs maintenance (reaper, pruner, vacuum, the sweep of concurrency
 * keys): it holds the maintenance lease ({@link MaintenanceStore#holdMaintenance}), renewed every {@link #interval()},
 * while every other node asks at the same interval whether the lease is free or expired. A holder that dies
 * is succeeded within {@link #length} and one interval; one that stops releases the lease and is succeeded
 * within an interval.
 *
 * <p>The lease saves work, it does not guard any: every maintenance statement is safe on several nodes at
 * once. So a holder that cannot reach the database believes it holds the lease until its own clock says it
 * may have expired, counted from when the last renewal was sent, and a moment of two maintainers, one
 * whose lease was just taken, costs a duplicated pass at most.
 */
final class MaintenanceLease {

	private static final Logger log = LoggerFactory.getLogger(MaintenanceLease.class);

	/** The lease's name in {@link RoleLiveness}. */
	static final String ROLE = "maintenance lease";

	/** The longest maintenance lease, whatever the job lease: a dead maintainer is succeeded within seconds. */
	static final Duration LONGEST = Duration.ofSeconds(10);

	private final MaintenanceStore store;

	private final String owner;

	private final Duration length;

	private final JobListener listener;

	/** Until when, by {@link System#nanoTime()}, this runtime may believe it holds the lease. */
	private volatile long heldUntilNanos = System.nanoTime();

	/** What the listener was last told; guarded by this. */
	private boolean reported;

	private boolean released;

	MaintenanceLease(MaintenanceStore store, String owner, Duration jobLease, JobListener listener) {
		this.store = store;
		this.owner = owner;
		this.length = length(jobLease);
		this.listener = listener;
	}

	/**
	 * A third of the job lease, at most {@link #LONGEST}: a successor takes over before the leases of the
	 * jobs the dead maintainer ran have expired, or soon after (the heartbeat renews those up to an interval
	 * before the death), so its own jobs are reaped no later than when every node reaped.
	 */
	static Duration length(Duration jobLease) {
		Duration third = jobLease.dividedBy(3);
		return third.compareTo(LONGEST) < 0 ? third : LONGEST;
	}

	/** How often the holder renews and the others ask: three times per lease. */
	Duration interval() {
		return length.dividedBy(3);
	}

	/** Whether this runtime holds the lease, as far as it can tell: maintenance passes run only while it does. */
	boolean held() {
		return System.nanoTime() - heldUntilNanos < 0;
	}

	/** Takes or renews the lease; a failure leaves the belief to run out with the last renewal. */
	synchronized void runOnce() {
		if (released) {
			return;
		}
		long sentAt = System.nanoTime();
		try {
			heldUntilNanos = store.holdMaintenance(owner, length) ? sentAt + length.toNanos() : sentAt;
		}
		finally {
			report();
		}
	}

	/** Gives the lease up at a stop, so that another node takes it at its next ask; never renewed after. */
	synchronized void release() {
		released = true;
		heldUntilNanos = System.nanoTime();
		try {
			store.releaseMaintenance(owner);
		}
		catch (RuntimeException ex) {
			log.warn("Could not release the maintenance lease of {}; another node takes it once it expires, "
					+ "within {} ms", owner, length.toMillis(), ex);
		}
		report();
	}

	private void report() {
		boolean holds = held();
		if (holds == reported) {
			return;
		}
		reported = holds;
		if (holds) {
			log.info("jobqueue runtime {} is now the maintenance node (reaper, pruner, vacuum); lease {} ms", owner,
					length.toMillis());
		}
		else {
			log.info("jobqueue runtime {} is no longer the maintenance node", owner);
		}
		listener.onMaintaining(holds);
	}
}
