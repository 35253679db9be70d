package dev.jobqueue.store;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

import dev.jobqueue.BatchCounts;
import dev.jobqueue.JobState;

/**
 * Batches: jobs enqueued together, each with a row naming its batch ({@link Role#member}), and callback jobs written
 * {@code waiting} with rows of their own ({@link Role#on_finish}, {@link Role#on_failure}). When the batch's jobs
 * have finished, or the first has ended dead, {@link Transition#ofBatchCallback} decides each callback's promotion
 * or cancel, which {@link DependencyStore#promote} and {@link DependencyStore#cancel} carry out while it still waits,
 * so that it changes once however many nodes settle the batch. The rows go with their jobs; a finished batch whose
 * rows are all gone, with {@link #prune}. Calls join the Spring transaction bound to the store's {@code DataSource},
 * if there is one.
 */
public interface BatchStore {

	/** What a job is to its batch. */
	enum Role {
		member, on_finish, on_failure
	}

	/** A batch's row, and the state of one of its jobs. */
	record Row(long jobId, long batchId, Role role, JobState state) {
	}

	/** Runs {@code work} all or nothing: a batch's jobs, callbacks and rows enqueued together. */
	<T> T inOneTransaction(Supplier<T> work);

	/** Writes a new, unfinished batch of {@code total} jobs; returns its id. Its jobs' rows follow ({@link #add}). */
	long create(int total);

	/**
	 * Writes the rows of jobs just enqueued, each with its role in batch {@code batchId}. The members are enqueued
	 * with {@link NewJob#hasDependents()}, so that the worker that ends one settles the batch at once.
	 */
	void add(long batchId, Role role, List<Long> jobIds);

	/** The batch rows of these jobs, with their jobs' states. */
	List<Row> rowsOf(Collection<Long> jobIds);

	/**
	 * The lowest id, {@code from} or above, of a member of batch {@code batchId} that has not finished: where the next
	 * look for one may start, for as long as no finished member comes back (an operator's retry of a dead one).
	 */
	OptionalLong firstUnfinished(long batchId, long from);

	/** Whether a member of batch {@code batchId} is dead. */
	boolean anyDead(long batchId);

	/** Its members counted by state as they are now, or empty when there is no such batch. */
	Optional<BatchCounts> count(long batchId);

	/** The counts it recorded as it finished, else counted now; empty when there is no such batch. */
	Optional<BatchCounts> counts(long batchId);

	/** Records {@code counts} and that the batch has finished; false when it had been already (on another node). */
	boolean finish(BatchCounts counts);

	/** The callbacks of batch {@code batchId} still waiting, with their queues and keys. */
	List<Callback> waitingCallbacks(long batchId);

	/** A waiting callback. */
	record Callback(long jobId, Role role, String queue, String concurrencyKey) {
	}

	/** One stretch of the sweep: the ids of up to {@code max} unfinished batches above {@code after}, in id order. */
	List<Long> unfinishedAfter(long after, int max);

	/** Deletes the finished batches that no longer have a job; returns how many. */
	int prune();
}
