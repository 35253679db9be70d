package dev.jobqueue;

/**
 * What {@link JobQueue#enqueueUnique} did: inserted a new job, or found an unfinished job of the same kind
 * holding the unique key and inserted nothing.
 *
 * @param id the new job's id, or the id of the unfinished job that holds the key
 * @param inserted whether this call wrote a job
 */
public record EnqueueResult(long id, boolean inserted) {

	/** Whether the key was taken, so that {@link #id()} names a job enqueued before. */
	public boolean duplicate() {
		return !inserted;
	}
}
