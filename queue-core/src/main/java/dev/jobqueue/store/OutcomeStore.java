package dev.jobqueue.store;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;

/**
 * How a running job's execution ends: succeeded, retried later, snoozed, dead, released for another node, or handed
 * back unstarted.
 * Every write is fenced by its {@link Lease}: when the lease was superseded it changes no row and the method says
 * so, it does not throw. Calls join the Spring transaction bound to the store's {@code DataSource}, if there is one
 * (a transactional handler's completion).
 */
public interface OutcomeStore {

	/** running → succeeded; false when the lease was lost. */
	boolean complete(Lease lease, String resultJson);

	/** Completes many executions in one statement; returns the leases that were lost. */
	Set<Lease> completeAll(Collection<Completion> completions);

	/**
	 * running → ready, due after {@code delay}, {@code error} stored as the last error and appended to the
	 * job's error history; false when the lease was lost. Like every way back from running (snooze, release,
	 * reaper), it goes to blocked instead for a job of a key with a rate, so that its next start waits for a
	 * promotion, which counts it against the rate.
	 */
	boolean retryLater(Lease lease, Duration delay, String error);

	/**
	 * running → ready, due after {@code delay}, the attempt given back and the job's snooze count raised by
	 * one; no error is recorded. False when the lease was lost.
	 */
	boolean snooze(Lease lease, Duration delay);

	/** running → dead, {@code error} recorded as by {@link #retryLater}; false when the lease was lost. */
	boolean fail(Lease lease, String error);

	/**
	 * running → cancelled ({@link Transition#CANCEL_BY_HANDLER}), the lease let go and with it the slot of the job's
	 * concurrency key, {@code reason} recorded as an error is by {@link #retryLater}; false when the lease was lost.
	 */
	boolean cancelByHandler(Lease lease, String reason);

	/**
	 * running → ready at once, the attempt given back: for work this worker started but will not
	 * finish (shutdown). Once per job: false when the lease was lost, or when the job had its attempt
	 * given back before, so that a job interrupted at every shutdown still uses up its attempts.
	 */
	boolean release(Lease lease);

	/**
	 * running → ready at once (blocked for a key with a rate), the attempt given back: for a job whose handler this
	 * worker never started ({@link Transition#HAND_BACK}). Unlike {@link #release} it applies however often and leaves
	 * the job its release. False when the lease was lost.
	 */
	boolean handBack(Lease lease);

	/**
	 * cancelled → cancelled, its worker's lease let go: the handler of a job cancelled while it ran has exited, and
	 * the job's slot of its concurrency key is free ({@link Transition#END_CANCELLED}). False when the job was not
	 * cancelled under this lease, or its end was written already.
	 */
	boolean endCancelled(Lease lease);
}
