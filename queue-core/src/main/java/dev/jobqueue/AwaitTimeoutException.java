package dev.jobqueue;

import java.time.Duration;

/**
 * Thrown by {@link JobQueue#await(long, Duration)} when the job has not finished within the time given. The
 * job is untouched: it goes on, and may be awaited again.
 */
public final class AwaitTimeoutException extends RuntimeException {

	private final long jobId;

	public AwaitTimeoutException(long jobId, Duration timeout) {
		super("job " + jobId + " did not finish within " + timeout);
		this.jobId = jobId;
	}

	public long jobId() {
		return jobId;
	}
}
