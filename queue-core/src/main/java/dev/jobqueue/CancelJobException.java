package dev.jobqueue;

/**
 * Thrown by a handler (or as the cause of what it throws) to say that the job's work is no longer wanted: the job
 * ends {@link JobState#cancelled}, not retried whatever attempts it has left, with the message as its last error and
 * on its error history. The slot of its concurrency key is let go as the handler exits, as for any finished job.
 * Where the work is still wanted but cannot succeed, throw {@link NonRetryableException}: the job ends
 * {@link JobState#dead}, where an operator may retry it.
 */
public class CancelJobException extends RuntimeException {

	public CancelJobException(String reason) {
		super(reason);
	}

	public CancelJobException(String reason, Throwable cause) {
		super(reason, cause);
	}
}
