package dev.jobqueue.store;

import java.time.Duration;

/**
 * What the maintenance node runs, and the lease that makes one node the maintenance node: the reaper of expired
 * leases, the pruner of finished jobs and the vacuum of the job table.
 */
public interface MaintenanceStore {

	/**
	 * How many times the reaper gives back the attempt of a claim its worker never confirmed: enough to
	 * ride out claim answers lost on the network, few enough that a job whose worker dies before the first
	 * heartbeat every time still ends dead.
	 */
	int MAX_UNCONFIRMED_REAPS = 10;

	/**
	 * Running jobs whose lease expired go back to ready, or to dead when their attempts are spent, with
	 * "lease expired on (owner)" as their last error and on their error history. An attempt counts once
	 * the worker confirmed its claim ({@link ClaimStore#confirm}, {@link ClaimStore#heartbeat}); a lease that
	 * expires unconfirmed gives its attempt back, at most {@link #MAX_UNCONFIRMED_REAPS} times per job. Run by
	 * the maintenance node, and safe on several nodes at once, as while the maintenance lease changes hands.
	 * Returns how many were reaped.
	 */
	int reapExpired(int limit);

	/**
	 * Lets go of up to {@code limit} expired leases of jobs cancelled while they ran, whose workers never wrote the
	 * handler's end (the node died): their slots of their concurrency keys are free for the promotion's sweep
	 * ({@link Transition#END_CANCELLED}). Returns how many.
	 */
	int endExpiredCancels(int limit);

	/**
	 * Deletes up to {@code limit} finished jobs: succeeded and cancelled ones finished more than
	 * {@code finishedRetention} ago, dead ones more than {@code deadRetention} ago. Never a dead job that holds its
	 * key's slot ({@link Transition.Facts#holdsSlot}): it is kept until it is retried or cancelled, so that its
	 * key's next jobs keep waiting for it.
	 */
	int prune(Duration finishedRetention, Duration deadRetention, int limit);

	/**
	 * Vacuums the job table when it holds at least {@code deadRowThreshold} dead row versions, on a
	 * connection of its own in auto-commit, never in the caller's transaction. Does nothing where the
	 * database keeps no dead versions, or where this database user may not vacuum the table (said once,
	 * in a warning). Returns whether the table was vacuumed.
	 */
	boolean vacuumIfBloated(long deadRowThreshold);

	/**
	 * Takes the maintenance lease for {@code owner} when no one holds it or its holder's expired, or renews it
	 * when {@code owner} holds it, to expire {@code lease} from now by the database's clock; returns whether
	 * {@code owner} holds it now. One statement, in a transaction of its own where the caller is in none: at
	 * most one owner holds it at a time, by the database's clock.
	 */
	boolean holdMaintenance(String owner, Duration lease);

	/** Gives the maintenance lease up, if {@code owner} holds it, so that another owner takes it at once. */
	void releaseMaintenance(String owner);
}
