package dev.jobqueue;

import java.util.function.Supplier;

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

	/**
	 * Runs {@code work} once per job, not once per attempt: the attempt that finishes it records its result with the
	 * job (as JSON, like a job's result), and every later attempt (a retry, a run after a crash or a deploy) gets the
	 * recorded result back without running it again. Steps run in the order the handler calls them; a step that
	 * throws is not recorded, fails the attempt as the handler's own exception would, and runs again in the next
	 * attempt. Recorded before it returns, fenced by the job's lease: a worker that lost the job's lease records
	 * nothing and gets an {@link IllegalStateException}. In a transactional handler the record commits with the
	 * handler's writes, or rolls back with them. A job's steps are deleted with the job.
	 *
	 * <p>A {@code JobContext} of one's own (a test double) runs {@code work} each time.
	 *
	 * @param name the step's name, unique within the job's handler: 1 to 200 characters
	 * @param resultType what the recorded result is read back as
	 * @throws IllegalArgumentException for a blank or longer name, or a null type or work
	 */
	default <T> T step(String name, Class<T> resultType, Supplier<? extends T> work) {
		if (resultType == null || work == null) {
			throw new IllegalArgumentException("step '" + name + "' needs a result type and work to run");
		}
		return work.get();
	}

	/** {@link #step(String, Class, Supplier)} of work without a result. */
	default void step(String name, Runnable work) {
		if (work == null) {
			throw new IllegalArgumentException("step '" + name + "' needs work to run");
		}
		step(name, Void.class, () -> {
			work.run();
			return null;
		});
	}
}
