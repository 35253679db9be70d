package dev.jobqueue.store;

import java.util.List;

import dev.jobqueue.EnqueueResult;

/**
 * The inserts of new jobs. Calls join the Spring transaction bound to the store's {@code DataSource}, if there is
 * one, so that a job exists if and only if the caller's transaction commits.
 */
public interface EnqueueStore {

	/**
	 * Inserts a job; returns its id, or the id of the job of the same kind that holds its unique key
	 * ({@link TransitionSql#holdsUniqueKey}), and whether it inserted. Unique keys are scoped by kind: jobs of other
	 * kinds never hold them.
	 */
	EnqueueResult enqueue(NewJob job);

	/**
	 * Inserts many jobs in as few statements as the database allows, each as {@link #enqueue} would
	 * ({@code has_dependents} and {@code unique_states} included); results in the order given.
	 */
	List<EnqueueResult> enqueueAll(List<NewJob> jobs);
}
