package dev.jobqueue.test;

import dev.jobqueue.JobListener.Outcome;

/**
 * One execution that {@link JobQueueTester#drain()} ran, as the queue recorded it.
 *
 * @param attempt which attempt of the job it was, 1 for the first
 * @param outcome how it ended: {@code SUCCEEDED}, {@code RETRIED} (ready again after its backoff) or
 * {@code DEAD}
 * @param error the error stored with the job when it failed (message and stack trace), else {@code null}
 */
public record DrainedJob(long id, String kind, String queue, int attempt, Outcome outcome, String error) {

	public boolean succeeded() {
		return outcome == Outcome.SUCCEEDED;
	}
}
