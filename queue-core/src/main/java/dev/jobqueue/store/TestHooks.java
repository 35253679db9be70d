package dev.jobqueue.store;

import java.time.Duration;
import java.util.List;

import dev.jobqueue.Job;

/**
 * The statements only tests send (the queue-test module, and the project's own tests): which jobs a test enqueued,
 * and time moved on. Not part of a runtime's {@link JobStore}; made by {@link Dialect#testHooks}.
 */
public interface TestHooks {

	/**
	 * The highest job id the table holds, 0 when it is empty: ids only grow, so every job enqueued after
	 * this call has a higher one. For tests, which tell their own jobs from earlier ones by it.
	 */
	long newestId();

	/** Up to {@code limit} jobs whose id is above {@code id}, in any state, in id order. */
	List<Job> findNewerThan(long id, int limit);

	/**
	 * Moves the due time of every ready or blocked job {@code by} earlier, as if that much time had passed;
	 * returns how many moved. Delayed jobs and retries then become due without waiting, those waiting behind
	 * their concurrency key included: the database's clock, which decides what is due, cannot be moved.
	 */
	int bringReadyForward(Duration by);
}
