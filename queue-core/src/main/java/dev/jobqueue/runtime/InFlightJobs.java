package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Lease;

/** The executions this node holds a lease for: what the heartbeat extends, the
 * watchdog fences and times out, and a shutdown interrupts. */
final class InFlightJobs {

	private final Map<Lease, Execution> executions = new ConcurrentHashMap<>();

	private final Duration fence;

	private final JobSteps steps;

	private final JobNotes notes;

	private final JobDependencies dependencies;

	/**
	 * @param fence how long a lease is believed held after the statement that granted it was sent
	 * @param steps where the executions' handlers read and record their steps
	 * @param notes where the executions' handlers write their log lines and progress
	 * @param dependencies where the executions' handlers read the jobs theirs run after
	 */
	InFlightJobs(Duration fence, JobSteps steps, JobNotes notes, JobDependencies dependencies) {
		this.fence = fence;
		this.steps = steps;
		this.notes = notes;
		this.dependencies = dependencies;
	}

	/**
	 * @param claimSentAt {@link System#nanoTime()} when the claim that leased the job was sent
	 * @param confirmed whether the claim was confirmed already
	 */
	Execution add(ClaimedJob job, long claimSentAt, boolean confirmed) {
		Execution execution = new Execution(job, claimSentAt, fence, confirmed, steps, notes, dependencies);
		executions.put(job.lease(), execution);
		return execution;
	}

	void remove(Execution execution) {
		executions.remove(execution.lease());
	}

	Collection<Lease> leases() {
		return List.copyOf(executions.keySet());
	}

	Collection<Execution> executions() {
		return List.copyOf(executions.values());
	}

	Execution get(Lease lease) {
		return executions.get(lease);
	}

	boolean isEmpty() {
		return executions.isEmpty();
	}
}
