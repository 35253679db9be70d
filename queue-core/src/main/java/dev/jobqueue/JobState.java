package dev.jobqueue;

/**
 * The seven states of a job. The names are the literals stored in the {@code state} column, so this
 * enum and the SQL never disagree.
 *
 * <pre>
 * waiting ──every job it depends on finished──► ready (blocked with a concurrency key)
 *         ──a dependency it requires did not succeed──► cancelled
 * blocked ──slot of its concurrency key free──► ready
 * ready ──claim──► running ──ok──► succeeded
 *   ▲                 │
 *   └── retry / lease expired / released
 *                     running ── attempts spent or non-retryable ──► dead
 * waiting, blocked, ready ──cancel──► cancelled         dead ──retry by operator──► ready
 * </pre>
 */
public enum JobState {

	/**
	 * Waiting for the jobs it depends on ({@link EnqueueOptions#after}) to finish. Not claimed until they have, when
	 * it becomes {@link #ready} ({@link #blocked} with a concurrency key), or {@link #cancelled} when one it requires
	 * did not succeed.
	 */
	waiting,

	/**
	 * Waiting for a slot of its concurrency key: every slot is held by the key's earlier jobs. Not claimed
	 * until a slot is free, when it becomes {@link #ready} (the jobs of a key get their slots in enqueue order).
	 */
	blocked,

	/** Waiting to be claimed once {@code run_at} has passed (new, delayed or retrying). */
	ready,

	/** Claimed by a worker that holds a lease on it. */
	running,

	/** The handler returned normally. Final. */
	succeeded,

	/** Attempts are spent, or the failure was not retryable. Final until an operator retries it. */
	dead,

	/** Cancelled: by an operator, by its handler, or because a dependency it required did not succeed. Final. */
	cancelled;

	/** Whether no worker will ever pick the job up again on its own. */
	public boolean isFinished() {
		return this == succeeded || this == dead || this == cancelled;
	}
}
