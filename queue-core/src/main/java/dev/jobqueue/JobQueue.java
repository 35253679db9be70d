package dev.jobqueue;

import java.util.List;
import java.util.Optional;

/**
 * Enqueues jobs and looks them up. When a Spring transaction is active on the queue's
 * {@code DataSource}, every call joins it: a job enqueued in a transaction that rolls back never
 * existed.
 */
public interface JobQueue {

	/** Enqueues a job with default options and returns its id. */
	default long enqueue(String kind, Object payload) {
		return enqueue(kind, payload, EnqueueOptions.defaults());
	}

	/**
	 * Enqueues a job and returns its id, or the id of the unfinished job that already holds
	 * {@link EnqueueOptions#uniqueKey(String) the unique key}.
	 * @throws IllegalArgumentException for a blank or unknown kind (one that no handler of this application
	 * serves and that was not declared external), a kind holding U+0000, or a payload that cannot be
	 * written as JSON, is too large or holds U+0000 (options check their own limits as they are set);
	 * nothing is sent to the database then, so the caller's transaction goes on
	 */
	long enqueue(String kind, Object payload, EnqueueOptions options);

	/** Enqueues many jobs in one round trip per batch; the ids come back in the order given. */
	List<Long> enqueueAll(List<NewJobRequest> jobs);

	Optional<Job> find(long id);

	/** Cancels a job that has not started; returns whether it was ready and is now cancelled. */
	boolean cancel(long id);

	/**
	 * Puts a dead job back to ready with its attempts reset; returns whether it was dead.
	 * @throws IllegalStateException when the dead job has a unique key that a newer unfinished job holds,
	 * naming that job; the dead job stays dead and nothing is written
	 */
	boolean retry(long id);

	/** One job for {@link #enqueueAll(List)}. */
	record NewJobRequest(String kind, Object payload, EnqueueOptions options) {

		public NewJobRequest(String kind, Object payload) {
			this(kind, payload, EnqueueOptions.defaults());
		}
	}
}
