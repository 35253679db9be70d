package dev.jobqueue;

/**
 * {@link JobQueue#enqueue} or {@link JobQueue#enqueueAll} met a job that holds the uniqueness of one it was to write
 * ({@link EnqueueOptions#unique}), and wrote nothing. The caller's transaction goes on: catch it to carry on without
 * the job, or let it roll the transaction back. Where a duplicate is an expected outcome, enqueue with
 * {@link JobQueue#enqueueUnique} instead, which returns the holder.
 */
public class DuplicateJobException extends IllegalStateException {

	private final String kind;

	private final String uniqueKey;

	private final long holderId;

	public DuplicateJobException(String kind, String uniqueKey, long holderId) {
		super("job " + holderId + " of kind '" + kind + "' holds unique key '" + uniqueKey
				+ "'; nothing was enqueued (enqueueUnique returns the holder instead of throwing)");
		this.kind = kind;
		this.uniqueKey = uniqueKey;
		this.holderId = holderId;
	}

	public String kind() {
		return kind;
	}

	/** The key as stored ({@link Job#uniqueKey()}). */
	public String uniqueKey() {
		return uniqueKey;
	}

	/** The id of the job that holds the key. */
	public long holderId() {
		return holderId;
	}
}
