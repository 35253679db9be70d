package dev.jobqueue;

import java.time.Duration;
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

	/**
	 * Cancels a job that has not finished; returns whether it was ready or running and is now cancelled. A
	 * ready job is never started. A running one is cancelled at once in the database, and the node running
	 * it learns so within a heartbeat interval: its handler's thread is interrupted and
	 * {@link JobContext#isCancelled()} turns true. Whatever that handler then returns or throws changes
	 * nothing: the job stays cancelled.
	 */
	boolean cancel(long id);

	/**
	 * Waits until job {@code id} has finished (succeeded, dead or cancelled) and returns it as then read.
	 * Woken by the database's notifications where they are on (PostgreSQL's {@code NOTIFY}, the SQLite
	 * file's change counter), else by a look every poll interval; works on a node that runs no workers.
	 *
	 * @throws AwaitTimeoutException when it has not finished within {@code timeout}; the job goes on
	 * @throws IllegalArgumentException when there is no job {@code id}, or {@code timeout} is not positive
	 * @throws IllegalStateException when the job is deleted while awaited (pruned), or the waiting thread
	 * is interrupted (its interrupt flag is kept)
	 */
	Job await(long id, Duration timeout);

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
