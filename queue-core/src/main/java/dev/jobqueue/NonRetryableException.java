package dev.jobqueue;

/**
 * Thrown by a handler (or as the cause of what it throws) to say that trying again cannot help:
 * the job goes straight to {@link JobState#dead} whatever attempts it has left.
 */
public class NonRetryableException extends RuntimeException {

	public NonRetryableException(String message) {
		super(message);
	}

	public NonRetryableException(String message, Throwable cause) {
		super(message, cause);
	}
}
