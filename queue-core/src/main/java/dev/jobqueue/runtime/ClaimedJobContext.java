package dev.jobqueue.runtime;

import dev.jobqueue.JobContext;
import dev.jobqueue.store.ClaimedJob;

/** What a handler knows of the claimed job it runs; subclasses say whether its lease still holds. */
abstract class ClaimedJobContext implements JobContext {

	private final ClaimedJob job;

	ClaimedJobContext(ClaimedJob job) {
		this.job = job;
	}

	ClaimedJob job() {
		return job;
	}

	@Override
	public long jobId() {
		return job.id();
	}

	@Override
	public String kind() {
		return job.kind();
	}

	@Override
	public String queue() {
		return job.queue();
	}

	@Override
	public int attempt() {
		return job.attempt();
	}

	@Override
	public int maxAttempts() {
		return job.maxAttempts();
	}

	@Override
	public long leaseToken() {
		return job.lease().token();
	}
}
