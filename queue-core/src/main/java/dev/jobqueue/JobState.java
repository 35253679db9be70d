package dev.jobqueue;

/**
 * The five states of a job. The names are the literals stored in the {@code state} column, so this
 * enum and the SQL never disagree.
 *
 * <pre>
 * ready ──claim──► running ──ok──► succeeded
 *   ▲                 │
 *   └── retry / lease expired / released
 *                     running ── attempts spent or non-retryable ──► dead
 * ready ──cancel──► cancelled          dead ──retry by operator──► ready
 * </pre>
 */
public enum JobState {

	/** Waiting to be claimed once {@code run_at} has passed (new, delayed or retrying). */
	ready,

	/** Claimed by a worker that holds a lease on it. */
	running,

	/** The handler returned normally. Final. */
	succeeded,

	/** Attempts are spent, or the failure was not retryable. Final until an operator retries it. */
	dead,

	/** Cancelled before it ran. Final. */
	cancelled;

	/** Whether no worker will ever pick the job up again on its own. */
	public boolean isFinished() {
		return this == succeeded || this == dead || this == cancelled;
	}
}
