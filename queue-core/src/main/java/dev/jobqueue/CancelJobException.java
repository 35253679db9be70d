package dev.jobqueue;

/**
 * Thrown by a handler (or as the cause of what it throws) to say that the job's work is no longer wanted: the job
 * ends {@link JobState#cancelled}, not retried whatever attempts it has left, with the message as its last error and
 * on its error history. The slot of its concurrency key is let go as the handler exits, as for any finished job.
 * Where the work is still wanted but cannot succeed, throw {@link NonRetryableException}: the job ends
 * {@link JobState#dead}, where an operator may retry it. {@link JobContext#cancel} throws it, and makes the cancel
 * stand even if the handler catches it.
 */
public class CancelJobException extends RuntimeException {

	/** @throws IllegalArgumentException when {@code reason} is null or blank */
	public CancelJobException(String reason) {
		this(reason, null);
	}

	/** @throws IllegalArgumentException when {@code reason} is null or blank */
	public CancelJobException(String reason, Throwable cause) {
		super(required(reason), cause);
	}

	private static String required(String reason) {
		if (reason == null || reason.isBlank()) {
			throw new IllegalArgumentException("a cancel needs a reason: it is the job's last error and stays on "
					+ "its history");
		}
		return reason;
	}
}
