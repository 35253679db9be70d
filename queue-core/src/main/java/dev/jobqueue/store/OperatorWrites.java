package dev.jobqueue.store;

import java.util.Collection;
import java.util.List;

/**
 * The operator's actions on jobs, one at a time or in batches named by id: each batch in one statement, under the
 * same conditions as its one-job form, so that the state machine and the fencing hold row by row.
 */
public interface OperatorWrites {

	/**
	 * blocked, ready or running → cancelled; dead → cancelled too for a dead job that holds the slot of its
	 * concurrency key, which this frees. A running job keeps its lease token, so that
	 * {@link ClaimStore#cancelled} can tell its worker; every outcome write of that worker then changes nothing,
	 * as for a lost lease.
	 */
	boolean cancel(long id);

	/**
	 * dead → ready, attempts reset, due now; dead → blocked for a job with a concurrency key, which then waits
	 * for {@link PromotionStore#promote} like a new one. False when the job is not dead, or when another job
	 * of its kind holds its unique key ({@link OperatorReads#holderOfUniqueKey}): the job then stays dead.
	 */
	boolean retryDead(long id);

	/** {@link #cancel} for each of {@code ids}, in one statement; returns the jobs it cancelled. */
	List<ChangedJob> cancelAll(Collection<Long> ids);

	/**
	 * {@link #retryDead} for each of {@code ids}, in one statement; returns the jobs it retried. Of several dead
	 * jobs in {@code ids} with the same kind and unique key only the newest is retried: once it is, it holds the key.
	 */
	List<ChangedJob> retryDeadAll(Collection<Long> ids);

	/**
	 * Deletes those of {@code ids} that are finished (succeeded, dead or cancelled), in one statement, except a dead
	 * job that holds its key's slot ({@link Transition.Facts#holdsSlot}), as {@link MaintenanceStore#prune} keeps it.
	 */
	List<ChangedJob> deleteFinished(Collection<Long> ids);
}
