package dev.jobqueue.store;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A worker's hold on its jobs: the claim that leases them, the confirmation that a job's handler starts, the
 * heartbeat that extends the leases, and the look-up of the ones an operator cancelled meanwhile. Every write is
 * fenced by its {@link Lease}: when the lease was superseded it changes no row and says so, it does not throw.
 *
 * <p>A confirmed claim's attempt counts when the reaper takes the job back, an unconfirmed one is given back
 * ({@link Transition#REAP}): a job is confirmed as its handler starts (by the claim itself when it starts at once),
 * so that a claim whose answer was lost, or a job that waited in line on a worker that died, costs no attempt.
 */
public interface ClaimStore {

	/**
	 * Claims up to {@code limit} due jobs of {@code queue} whose kind is a key of {@code versions} and whose
	 * payload version is at most that key's value, in claim order (priority, run-at, id), leasing them to
	 * {@code owner} for {@code lease}. Jobs of other kinds, and jobs of a payload version newer than the
	 * caller reads, stay ready, untouched, for a node that serves them; so do all jobs of a paused queue and
	 * those of a paused kind ({@link PauseStore#pause}). Never hands the same job to two callers.
	 *
	 * <p>A worker that starts every job as soon as it arrives claims them {@code confirmed}: the claim's own update
	 * confirms them as {@link #confirm} would, which spares the worker that statement. A confirmed claim that fails
	 * may have committed with its answer lost: the caller then takes the confirmation back
	 * ({@link #takeBackConfirmations}) before it claims again, so that the reaper gives back the attempts of a claim
	 * whose answer never arrived, as for an unconfirmed one.
	 *
	 * @param versions per kind the caller serves, the newest payload version it reads
	 * @param confirmed whether the claim confirms the jobs it takes
	 */
	List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner, Duration lease,
			boolean confirmed);

	/**
	 * Takes back the confirmation of every running job of {@code queue} leased to {@code owner} but those of
	 * {@code held}: the jobs of a confirming claim that failed, which may have committed, and which the worker never
	 * received. Called by the only claimer of {@code queue} for {@code owner} before it claims again, with every lease
	 * it holds there, so that no other row can be one of its own.
	 */
	void takeBackConfirmations(String owner, String queue, Collection<Lease> held);

	/**
	 * How long until the earliest ready job that {@link #claim} would take from {@code queue} with
	 * {@code versions} is due, by the database's clock, when one is due within {@code horizon}; zero or
	 * negative when one is due already (another claim holds it, or it became due since the last claim).
	 * Jobs {@link #claim} would pass over as paused do not count.
	 * Empty when none is due within the horizon. Reads the ready index, never the table: what a poller asks
	 * before it sleeps, so that it wakes when the job is due rather than at its next poll.
	 */
	Optional<Duration> nextDueWithin(String queue, Map<String, Integer> versions, Duration horizon);

	/**
	 * Confirms the claims of the leases {@code owner} still holds (the reaper then counts their attempts), and
	 * leaves their expiry alone: sent right after the claim for the jobs that start at once, before any of their
	 * handlers starts, or later for a started job whose confirmation failed. Leases lost meanwhile are passed over.
	 */
	void confirm(String owner, Collection<Lease> leases);

	/**
	 * Confirms, in one statement, the claims of the leases {@code owner} still holds whose queue and kind are not
	 * paused, read as {@link #claim} reads pauses; returns those. For jobs that waited in line for a thread (the
	 * queue's prefetch), as a thread takes them up: a lease not returned was lost, or its job is paused and must not
	 * start. Leaves the expiry alone, as {@link #confirm} does.
	 */
	Set<Lease> confirmStarts(String owner, Collection<Lease> leases);

	/**
	 * Extends the leases {@code owner} still holds, and nothing else: a job waiting in line stays unconfirmed. Returns
	 * those extended of running jobs; a cancelled job's lease is extended while its handler runs
	 * ({@link TransitionSql#leaseKept}) but not returned, so that the caller learns of the cancel. A store may pass over a row another of the queue's statements holds locked (the
	 * completion or confirmation of the same job) rather than wait behind it, so a lease not returned was lost, or
	 * is still held and extended at the next heartbeat: {@link #held} tells which.
	 */
	Set<Lease> heartbeat(String owner, Collection<Lease> leases, Duration lease);

	/** Those of {@code leases} that {@code owner} still holds on running jobs, read without waiting for any lock. */
	Set<Lease> held(String owner, Collection<Lease> leases);

	/** Those of {@code leases} whose job was cancelled while that lease held it. */
	Set<Lease> cancelled(Collection<Lease> leases);
}
