package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import dev.jobqueue.JobListener;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;

/**
 * The maintenance roles of a node: the reaper, the pruner and the vacuumer, which do work for the whole
 * cluster and so run on one node at a time, the holder of the {@link MaintenanceLease}. Every node asks for
 * the lease; on the others each pass finds it held elsewhere and does nothing. One instance per start of the
 * runtime: a stopped one stays stopped.
 */
final class Maintenance {

	private final RuntimeSettings settings;

	private final RoleLiveness liveness;

	private final MaintenanceLease lease;

	private final Reaper reaper;

	private final Pruner pruner;

	private final Vacuumer vacuumer;

	/** One thread per task: a long VACUUM or prune must not hold up another, nor the lease's renewal. */
	private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(4,
			new NamedThreads("jobqueue-maintenance"));

	/**
	 * @param slotsFreed told when a reap or a prune changed jobs, which may free slots of concurrency keys (a reaped
	 *     holder, a pruned start that a rate counted) or end jobs that others wait for (a job reaped dead), without
	 *     naming them
	 */
	Maintenance(JobStore store, String owner, RuntimeSettings settings, JobListener listener, RoleLiveness liveness,
			Runnable slotsFreed) {
		this.settings = settings;
		this.liveness = liveness;
		this.lease = new MaintenanceLease(store.maintenance(), owner, settings.lease(), listener);
		this.reaper = new Reaper(store.maintenance(), listener, slotsFreed);
		this.pruner = new Pruner(store, settings.finishedRetention(), settings.deadRetention(), slotsFreed);
		this.vacuumer = new Vacuumer(store.maintenance());
	}

	/**
	 * Asks for the lease once before anything else, so that a node that finds it free maintains from its
	 * first pass, then keeps asking; the lease is watched for health on every node, the roles it guards not:
	 * on a node that does not hold it they do nothing, and are never overdue for it.
	 */
	void start() {
		liveness.watch(MaintenanceLease.ROLE, lease.interval(), settings.lease());
		liveness.pass(MaintenanceLease.ROLE, lease::runOnce, lease.interval());
		liveness.every(executor, MaintenanceLease.ROLE, lease::runOnce, lease.interval());
		whileHeld("reaper", reaper::runOnce, settings.reaperInterval());
		whileHeld("pruner", pruner::runOnce, settings.pruneInterval());
		if (!settings.vacuumInterval().isZero()) {
			whileHeld("vacuum", vacuumer::runOnce, settings.vacuumInterval());
		}
	}

	private void whileHeld(String role, Runnable pass, Duration interval) {
		liveness.every(executor, role, () -> {
			if (lease.held()) {
				pass.run();
			}
		}, interval);
	}

	/** Whether this node is the one that maintains, as far as it can tell. */
	boolean held() {
		return lease.held();
	}

	/**
	 * Stops every pass (one under way finishes on its own; a second maintainer for a moment costs nothing) and
	 * releases the lease, so that another node takes it at its next ask.
	 */
	void stop() {
		executor.shutdownNow();
		lease.release();
	}
}
