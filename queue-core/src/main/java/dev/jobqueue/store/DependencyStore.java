package dev.jobqueue.store;

import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

import dev.jobqueue.EnqueueResult;

/**
 * Workflows: jobs that run after others ({@link NewJob.Dependencies}). A job with dependencies is written
 * {@code waiting}, with one row per dependency; once they have all finished, {@link Transition#ofDependencies} decides
 * its promotion or its cancel, which {@link #promote} and {@link #cancel} carry out, each only while it still waits, so
 * that two nodes settling it at once change it once. Calls join the Spring transaction bound to the store's
 * {@code DataSource}, if there is one.
 */
public interface DependencyStore {

	/**
	 * Inserts a job as {@link EnqueueStore#enqueue} does, with its dependencies, all or nothing: a savepoint in the
	 * caller's transaction, else a transaction of its own. Refuses ({@link IllegalArgumentException}, writing nothing)
	 * dependencies that name no job.
	 */
	EnqueueResult enqueue(NewJob job);

	/** Runs {@code work} all or nothing, as {@link #enqueue} runs one job: a workflow's jobs enqueued together. */
	<T> T inOneTransaction(Supplier<T> work);

	/** The waiting jobs that depend on any of {@code finished}. */
	List<Long> waitingFor(Collection<Long> finished);

	/** One stretch of the sweep: the ids of up to {@code max} waiting jobs above {@code after}, in id order. */
	List<Long> waitingAfter(long after, int max);

	/** The jobs among {@code ids} that are still waiting, each with its dependencies' states. */
	List<WaitingJob> read(Collection<Long> ids);

	/**
	 * waiting → ready, or blocked with a concurrency key ({@link Transition#PROMOTE_WAITING}); false when it no
	 * longer waits. Also a batch's callback ({@link BatchStore}).
	 */
	boolean promote(long id);

	/**
	 * waiting → cancelled, {@code reason} its last error ({@link Transition#CANCEL_WAITING}); false when it no longer
	 * waits. Also a batch's callback.
	 */
	boolean cancel(long id, String reason);

	/** The ids of the jobs job {@code id} runs after, ascending. */
	List<Long> dependenciesOf(long id);
}
