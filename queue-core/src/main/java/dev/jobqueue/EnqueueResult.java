package dev.jobqueue;

import java.util.OptionalLong;

/**
 * What {@link JobQueue#enqueueUnique} did: inserted a new job, or found a job of the same kind holding the unique key
 * ({@link Unique} says which jobs hold it) and inserted nothing.
 *
 * @param id the new job's id, or the id of the job that holds the key: {@link #holderId()}
 * @param inserted whether this call wrote a job
 */
public record EnqueueResult(long id, boolean inserted) {

	/** Whether the key was taken, so that {@link #id()} names a job enqueued before. */
	public boolean duplicate() {
		return !inserted;
	}

	/** The id of the job that held the key, for a duplicate; empty when this call inserted. */
	public OptionalLong holderId() {
		return inserted ? OptionalLong.empty() : OptionalLong.of(id);
	}
}
