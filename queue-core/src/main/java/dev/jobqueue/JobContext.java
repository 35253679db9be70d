package dev.jobqueue;

/**
 * What a handler may know about the job it is running. Declare it as a second parameter of a
 * handler method to receive it.
 */
public interface JobContext {

	long jobId();

	String kind();

	String queue();

	/** 1 on the first execution, counting every execution charged against {@link #maxAttempts()}. */
	int attempt();

	int maxAttempts();

	/**
	 * The fencing token of this execution's lease: it grows by one each time the job is claimed and
	 * never goes back, so a write guarded by "only if the stored token is lower" can never be made by a
	 * worker whose lease was superseded.
	 */
	long leaseToken();

	/**
	 * Whether this worker still holds the lease. Turns false when the heartbeat finds the job taken
	 * over, or when no heartbeat has landed for so long that the lease may run out in the database (a
	 * hung or cut connection) — before any other worker can take the job. The handler's thread is
	 * interrupted at the same moment.
	 */
	boolean isLeaseHeld();

	/**
	 * Whether the job was cancelled while it ran ({@link JobQueue#cancel(long)}). This node learns it
	 * within a heartbeat interval and interrupts the handler's thread at the same moment; the job stays
	 * cancelled whatever the handler does next, so it should stop its work and return. {@link #isLeaseHeld()}
	 * turns false with it: nothing this attempt writes about the job counts any more.
	 */
	boolean isCancelled();

	/**
	 * Ends this attempt and the job {@link JobState#cancelled}, not retried whatever attempts it has left, with
	 * {@code reason} as its last error: throws the {@link CancelJobException} that says so, and never returns. The
	 * request stands once made: a handler that catches the exception, returns, or throws another one still ends its
	 * job cancelled. A transactional handler's writes roll back with its attempt.
	 *
	 * @throws IllegalArgumentException when {@code reason} is null or blank: the job is then failed, as by any
	 *         other exception
	 */
	default void cancel(String reason) {
		throw new CancelJobException(reason);
	}
}
