package dev.jobqueue.runtime;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Lease;

/** The executions this node holds a lease for: what the heartbeat extends and a shutdown releases. */
final class InFlightJobs {

	private final Map<Lease, Execution> executions = new ConcurrentHashMap<>();

	Execution add(ClaimedJob job) {
		Execution execution = new Execution(job);
		executions.put(job.lease(), execution);
		return execution;
	}

	void remove(Execution execution) {
		executions.remove(execution.lease());
	}

	Collection<Lease> leases() {
		return List.copyOf(executions.keySet());
	}

	Execution get(Lease lease) {
		return executions.get(lease);
	}

	boolean isEmpty() {
		return executions.isEmpty();
	}
}
