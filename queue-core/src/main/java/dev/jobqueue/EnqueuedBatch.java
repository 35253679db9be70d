package dev.jobqueue;

import java.util.List;
import java.util.Optional;

/**
 * A batch as {@link Batch#enqueue()} wrote it.
 *
 * @param id the batch's id, as {@link JobQueue#batchCounts(long)} and {@link BatchCounts#batchId()} name it
 * @param jobIds the ids of its jobs, in the order they were added
 * @param onFinish the id of the job that runs once they have all finished, if one was set
 * @param onFailure the id of the job that runs when the first of them ends dead, if one was set
 */
public record EnqueuedBatch(long id, List<Long> jobIds, Optional<Long> onFinish, Optional<Long> onFailure) {

	public EnqueuedBatch {
		jobIds = List.copyOf(jobIds);
	}
}
