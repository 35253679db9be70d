package dev.jobqueue;

/**
 * What becomes of a job that runs after others ({@link EnqueueOptions#after}) when one of them ends
 * {@link JobState#dead} or {@link JobState#cancelled}. Either way it waits until every one of them has finished.
 */
public enum DependencyFailure {

	/** It is cancelled, never run, its last error naming the dependency; its own dependents then follow. */
	CANCEL,

	/** It runs all the same; its handler reads the dependencies' ends ({@link JobContext#dependencies()}). */
	RUN
}
