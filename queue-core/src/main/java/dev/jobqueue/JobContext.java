package dev.jobqueue;

import java.util.List;
import java.util.Optional;
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

	/**
	 * The jobs this one runs after ({@link EnqueueOptions#after}, a {@link Workflow}'s edges), in id order, as they are
	 * now: each has finished, succeeded unless its job was enqueued to run when a dependency fails
	 * ({@link DependencyFailure#RUN}). One deleted since (pruned) is left out. Empty for a job outside a workflow, and
	 * for a {@code JobContext} of one's own (a test double).
	 */
	default List<Job> dependencies() {
		return List.of();
	}

	/**
	 * The result of job {@code dependencyId}, one that this job runs after, as {@code type}; empty when it did not
	 * succeed, returned nothing, or was deleted since. A {@code JobContext} of one's own (a test double) has none.
	 *
	 * @throws IllegalArgumentException when this job does not run after {@code dependencyId}, or the result does not
	 * bind to {@code type}
	 */
	default <T> Optional<T> dependencyResult(long dependencyId, Class<T> type) {
		return Optional.empty();
	}

	/**
	 * The batch this job belongs to, or is a callback of ({@link Batch}), with its counts per outcome: those recorded
	 * when it finished, for its {@link Batch#onFinish} callback; counted now, before. Empty for a job outside a
	 * batch, and for a {@code JobContext} of one's own (a test double).
	 */
	default Optional<BatchCounts> batch() {
		return Optional.empty();
	}

	/**
	 * The cursor {@code name} of this job: its position saved last, by this attempt or an earlier one, or
	 * {@code start} before the first {@link JobCursor#save save}. For a loop too long to run again from the
	 * beginning after a crash or a retry: it picks up from the position saved last. Kept with the job's steps, in
	 * names of their own, and deleted with the job.
	 *
	 * <p>A {@code JobContext} of one's own (a test double) keeps the position in memory.
	 *
	 * @param name the cursor's name, unique within the job's handler: 1 to 193 characters
	 * @param type what the saved position is read back as
	 * @param start the position before the first save; may be null
	 * @throws IllegalArgumentException for a blank or longer name, or a null type
	 */
	default <T> JobCursor<T> cursor(String name, Class<T> type, T start) {
		if (type == null) {
			throw new IllegalArgumentException("cursor '" + name + "' needs a position type");
		}
		return new MemoryCursor<>(start);
	}

	/**
	 * Logs {@code line} with the job, for this attempt ({@link JobQueue#log}, the console's job page): kept in
	 * memory and written at most once per heartbeat interval, and when the attempt ends, by the runtime's own
	 * statements, not the handler's transaction, so a failed or rolled-back attempt keeps its lines. At most
	 * {@value JobLogLimits#MAX_LINES} lines per attempt, each cut at {@value JobLogLimits#MAX_LINE_LENGTH} characters; the
	 * rest are counted in a last line. Lines an attempt logs in the last heartbeat interval before its process dies
	 * are lost with it.
	 *
	 * <p>A {@code JobContext} of one's own (a test double) drops them.
	 *
	 * @throws IllegalArgumentException for a null line
	 */
	default void log(String line) {
		if (line == null) {
			throw new IllegalArgumentException("a log line must not be null");
		}
	}

	/**
	 * Says how far this attempt got: {@code done} of {@code total} units, written as {@link #log} lines are, so a
	 * handler may call it at every unit. The last figure written is the job's progress ({@link JobQueue#log}).
	 *
	 * <p>A {@code JobContext} of one's own (a test double) drops it.
	 *
	 * @throws IllegalArgumentException unless {@code total} is at least 1 and {@code done} is 0 to {@code total}
	 */
	default void progress(long done, long total) {
		JobLogLimits.checkProgress(done, total);
	}
}
