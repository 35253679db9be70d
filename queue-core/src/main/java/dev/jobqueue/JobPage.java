package dev.jobqueue;

import java.util.List;

/**
 * One page of {@link JobQueue#search}: jobs newest first (by id), and the cursor of the next page.
 *
 * @param jobs at most the query's page size
 * @param nextCursor what {@link JobQueue#search(JobQuery, String)} takes for the page after this one; null on
 *        the last page. Opaque: its form may change between versions, so keep it no longer than a session.
 */
public record JobPage(List<Job> jobs, String nextCursor) {

	public JobPage {
		jobs = List.copyOf(jobs);
	}

	public boolean hasNext() {
		return nextCursor != null;
	}
}
