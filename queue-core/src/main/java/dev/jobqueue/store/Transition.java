package dev.jobqueue.store;

import static dev.jobqueue.JobState.blocked;
import static dev.jobqueue.JobState.cancelled;
import static dev.jobqueue.JobState.dead;
import static dev.jobqueue.JobState.ready;
import static dev.jobqueue.JobState.running;
import static dev.jobqueue.JobState.succeeded;
import static dev.jobqueue.JobState.waiting;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

import dev.jobqueue.JobState;

/**
 * The job state machine, decided here once. For each event it says which states a job may be in for the event to
 * apply, the state the job goes to, what happens to its attempt, and whether the event goes on the job's error
 * history; whether the job then holds a slot of its concurrency key follows from the state it is in
 * ({@link Facts#holdsSlot}). Where the target depends on the row (a key with a rate, attempts spent), the dialects'
 * statements decide it in the database, atomically with the write, through the conditions {@link TransitionSql} generates
 * from the same rules; a transition table test runs every case against this class and, through each dialect's
 * store, against every database.
 */
public enum Transition {

	/** ready → running: the claim charges an attempt. */
	CLAIM(EnumSet.of(ready), Attempt.CHARGE, false),

	/** running → succeeded. */
	SUCCEED(EnumSet.of(running), Attempt.KEEP, false),

	/** running → back (ready, or blocked for a key with a rate): a failure with attempts left. */
	RETRY(EnumSet.of(running), Attempt.KEEP, true),

	/** running → back, as a retry, after the delay the handler chose ({@code RetryAfterException}). */
	RETRY_AFTER(EnumSet.of(running), Attempt.KEEP, true),

	/** running → dead: attempts spent, or an error that must not be retried. */
	FAIL(EnumSet.of(running), Attempt.KEEP, true),

	/**
	 * running → cancelled, the lease and the slot let go: the handler said its work is no longer wanted
	 * ({@code CancelJobException}), so the job is not retried, and its reason goes on the error history.
	 */
	CANCEL_BY_HANDLER(EnumSet.of(running), Attempt.KEEP, true),

	/** running → back, the attempt given back: the handler asked to run later. */
	SNOOZE(EnumSet.of(running), Attempt.GIVE_BACK, false),

	/**
	 * running → back, the attempt given back once per job: work the node's stop interrupted. A job that had its
	 * attempt given back by a release before stays running: its worker then fails the attempt.
	 */
	RELEASE(EnumSet.of(running), Attempt.GIVE_BACK, false),

	/**
	 * running → back, the attempt given back, a job whose handler never started: it waited in line on its node (the
	 * queue's prefetch) and found its queue or kind paused, or the node stopping, when a thread took it up. Unlike a
	 * release it applies however often, and leaves the job its release: no work of it was interrupted.
	 */
	HAND_BACK(EnumSet.of(running), Attempt.GIVE_BACK, false),

	/**
	 * running with an expired lease → back, or dead once its attempts are spent. An attempt counts once its worker
	 * confirmed the claim, which it does as the job's handler starts; an unconfirmed one (a claim whose answer was
	 * lost, a job that waited in line on its node) is given back, at most {@link #MAX_UNCONFIRMED_REAPS} times per job.
	 */
	REAP(EnumSet.of(running), Attempt.GIVE_BACK_UNCONFIRMED, true),

	/**
	 * waiting, blocked, ready, running, or dead while holding its key's slot → cancelled. A job that was not running frees its
	 * slot at once; a running one keeps its worker's lease, and with it the slot, until {@link #END_CANCELLED}: its
	 * handler may not answer the interrupt at once, and the key's next job must not start beside it.
	 */
	CANCEL(EnumSet.of(waiting, blocked, ready, running, dead), Attempt.KEEP, false),

	/**
	 * cancelled with its worker's lease still on it → cancelled, the lease and the slot let go: written by the worker
	 * once the handler exited, fenced by its lease token, or by the reaper once the lease expired (the node died).
	 */
	END_CANCELLED(EnumSet.of(cancelled), Attempt.KEEP, false),

	/** blocked → ready: a slot of its key was free. */
	PROMOTE(EnumSet.of(blocked), Attempt.KEEP, false),

	/**
	 * waiting → ready (blocked with a concurrency key, to wait for a slot as a new job does): every job it depends
	 * on has finished, and none that it requires ended otherwise than succeeded ({@link #ofDependencies}); or a
	 * batch's callback is due ({@link #ofBatchCallback}).
	 */
	PROMOTE_WAITING(EnumSet.of(waiting), Attempt.KEEP, false),

	/**
	 * waiting → cancelled: every job it depends on has finished, and one it requires ended dead or cancelled. Its
	 * last error names that one; it never ran, so its error history stays empty. Also a batch's failure callback
	 * once the batch finished without a dead job.
	 */
	CANCEL_WAITING(EnumSet.of(waiting), Attempt.KEEP, false),

	/** dead → ready (blocked with a concurrency key, to wait for a slot as a new job does), attempts reset. */
	RETRY_DEAD(EnumSet.of(dead), Attempt.RESET, false);

	/**
	 * How many times a reap gives back the attempt of a claim its worker never confirmed: enough to ride out claim
	 * answers lost on the network, few enough that a job whose worker dies before the first heartbeat every time
	 * still ends dead.
	 */
	public static final int MAX_UNCONFIRMED_REAPS = 10;

	private final Set<JobState> from;

	private final Attempt attempt;

	private final boolean recordsError;

	Transition(Set<JobState> from, Attempt attempt, boolean recordsError) {
		this.from = from;
		this.attempt = attempt;
		this.recordsError = recordsError;
	}

	/**
	 * The event a failed attempt is: a retry while the job has attempts left and the error allows one, else its
	 * death.
	 */
	public static Transition ofFailure(boolean retryable, int attempt, int maxAttempts) {
		return retryable && attempt < maxAttempts ? RETRY : FAIL;
	}

	/**
	 * The event the ends of a waiting job's dependencies make: none while one of them has not finished; once all
	 * have, its cancel when one it requires ended dead or cancelled, else its promotion. A dependency deleted before
	 * it was read (pruned, or deleted by an operator) had finished, and counts as succeeded.
	 */
	public static Optional<Transition> ofDependencies(Collection<WaitingJob.Dependency> dependencies) {
		if (dependencies.stream().anyMatch(dependency -> !dependency.finished())) {
			return Optional.empty();
		}
		return Optional.of(dependencies.stream().anyMatch(WaitingJob.Dependency::failedRequired) ? CANCEL_WAITING
				: PROMOTE_WAITING);
	}

	/**
	 * The event a batch's waiting callback is due, if any ({@link BatchStore}): the one run on finish once every job
	 * of the batch has finished; the one run on failure once one has ended dead, or cancelled when the batch finished
	 * without one.
	 */
	public static Optional<Transition> ofBatchCallback(BatchStore.Role callback, boolean finished, boolean failed) {
		return switch (callback) {
			case on_finish -> finished ? Optional.of(PROMOTE_WAITING) : Optional.empty();
			case on_failure -> failed ? Optional.of(PROMOTE_WAITING)
					: finished ? Optional.of(CANCEL_WAITING) : Optional.empty();
			case member -> throw new IllegalArgumentException("a batch's member is no callback");
		};
	}

	/** What this event does to a job with these facts; empty when it does not apply and changes nothing. */
	public Optional<Decision> decide(Facts job) {
		if (!applies(job)) {
			return Optional.empty();
		}
		int attemptAfter = attempt.after(job);
		JobState target = target(job, attemptAfter);
		return Optional.of(new Decision(target, attemptAfter, recordsError, leaseAfter(job, target)));
	}

	/**
	 * A worker's lease is on a running job, and stays on one cancelled while it ran, until its handler is seen to
	 * exit: every other state has no lease.
	 */
	private boolean leaseAfter(Facts job, JobState target) {
		return target == running || (this == CANCEL && job.state() == running);
	}

	private boolean applies(Facts job) {
		if (!from.contains(job.state())) {
			return false;
		}
		return switch (this) {
			case CANCEL -> job.state() != dead || job.holdsSlot();
			case END_CANCELLED -> job.leaseHeld();
			case RELEASE -> !job.attemptGivenBack();
			default -> true;
		};
	}

	private JobState target(Facts job, int attemptAfter) {
		return switch (this) {
			case CLAIM -> running;
			case SUCCEED -> succeeded;
			case FAIL -> dead;
			case CANCEL, END_CANCELLED, CANCEL_BY_HANDLER, CANCEL_WAITING -> cancelled;
			case PROMOTE -> ready;
			case RETRY_DEAD, PROMOTE_WAITING -> job.keyed() ? blocked : ready;
			case REAP -> attemptAfter == job.attempt() && job.attempt() >= job.maxAttempts() ? dead : back(job);
			case RETRY, RETRY_AFTER, SNOOZE, RELEASE, HAND_BACK -> back(job);
		};
	}

	/**
	 * Every way back from running leads to blocked for a job whose key has a rate, so that its next start waits for
	 * a promotion, which counts it against the rate; to ready for every other job.
	 */
	private static JobState back(Facts job) {
		return job.rated() ? blocked : ready;
	}

	/** What an event does to an attempt. */
	private enum Attempt {

		KEEP, CHARGE, GIVE_BACK, GIVE_BACK_UNCONFIRMED, RESET;

		int after(Facts job) {
			return switch (this) {
				case KEEP -> job.attempt();
				case CHARGE -> job.attempt() + 1;
				case GIVE_BACK -> job.attempt() - 1;
				case GIVE_BACK_UNCONFIRMED -> job.attempt() - (givesBack(job) ? 1 : 0);
				case RESET -> 0;
			};
		}

		private static boolean givesBack(Facts job) {
			return !job.claimConfirmed() && job.unconfirmedReaps() < MAX_UNCONFIRMED_REAPS;
		}
	}

	/**
	 * What an event decided: the state the job goes to, its attempt afterwards, whether the event goes on its error
	 * history, and whether a worker's lease is on it afterwards.
	 */
	public record Decision(JobState state, int attempt, boolean recordsError, boolean leaseHeld) {
	}

	/**
	 * The facts of a job that its transitions depend on.
	 *
	 * @param keyed whether it has a concurrency key
	 * @param rated whether its key has a rate
	 * @param deadHolds whether it keeps its key's slot once dead
	 * @param claimConfirmed whether its worker confirmed the claim of its current attempt
	 * @param attemptGivenBack whether a release gave its attempt back before
	 * @param unconfirmedReaps how many reaps gave back an unconfirmed attempt of it
	 * @param leaseHeld whether a worker's lease is on it: a running job, or one cancelled while it ran whose
	 * handler has not been seen to exit
	 */
	public record Facts(JobState state, boolean keyed, boolean rated, boolean deadHolds, int attempt, int maxAttempts,
			boolean claimConfirmed, boolean attemptGivenBack, int unconfirmedReaps, boolean leaseHeld) {

		/**
		 * Whether it holds a slot of its concurrency key: a keyed job that is ready or running, dead with a key
		 * whose dead jobs hold their slots, or cancelled while its handler may still run (its worker's lease is on
		 * it). {@link TransitionSql#holdsSlot} is the same rule in SQL.
		 */
		public boolean holdsSlot() {
			return keyed && (state == ready || state == running || (state == dead && deadHolds)
					|| (state == cancelled && leaseHeld));
		}
	}
}
