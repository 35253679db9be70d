package dev.jobqueue;

/**
 * A batch's jobs by outcome ({@link Batch}). Once the batch has finished these are the counts recorded as its last
 * job ended, which its {@link Batch#onFinish} callback reads; before, they are counted when asked.
 *
 * @param total how many jobs the batch was enqueued with
 * @param unfinished how many of them have not finished yet; 0 once the batch has
 * @param deleted how many of them were deleted (pruned) after they finished, their outcome no longer known
 */
public record BatchCounts(long batchId, int total, int unfinished, int succeeded, int dead, int cancelled,
		int deleted) {

	/** Whether every job of the batch has finished. */
	public boolean finished() {
		return unfinished == 0;
	}
}
