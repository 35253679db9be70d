package dev.jobqueue.runtime;

import dev.jobqueue.JobContext;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Lease;

/**
 * One running execution: the handler's {@link JobContext}, and the thread to interrupt if the
 * heartbeat finds the lease lost. Interrupting and finishing synchronize on the execution so that a
 * late interrupt can never hit the thread after it moved on to another job.
 */
final class Execution implements JobContext {

	private final ClaimedJob job;

	private Thread thread;

	private volatile boolean leaseHeld = true;

	private boolean finishing;

	Execution(ClaimedJob job) {
		this.job = job;
	}

	ClaimedJob job() {
		return job;
	}

	Lease lease() {
		return job.lease();
	}

	synchronized void begin() {
		thread = Thread.currentThread();
	}

	/** Detaches the thread and clears any interrupt meant for this execution. */
	synchronized void end() {
		thread = null;
		Thread.interrupted();
	}

	/**
	 * The handler is done and its outcome is being written. From here on a lease the heartbeat misses
	 * may simply be the outcome already committed; if it was really lost, the fenced write says so.
	 */
	synchronized void finishing() {
		finishing = true;
	}

	/** Tells the handler its lease is gone and interrupts it; false when it had already finished. */
	synchronized boolean leaseLost() {
		if (finishing) {
			return false;
		}
		leaseHeld = false;
		if (thread != null) {
			thread.interrupt();
		}
		return true;
	}

	@Override
	public long jobId() {
		return job.id();
	}

	@Override
	public String kind() {
		return job.kind();
	}

	@Override
	public String queue() {
		return job.queue();
	}

	@Override
	public int attempt() {
		return job.attempt();
	}

	@Override
	public int maxAttempts() {
		return job.maxAttempts();
	}

	@Override
	public long leaseToken() {
		return job.lease().token();
	}

	@Override
	public boolean isLeaseHeld() {
		return leaseHeld;
	}
}
