package dev.jobqueue.autoconfigure;

/**
 * A startup failure that the application's developer fixes in code or configuration: a handler or upcaster
 * declared wrong, no {@code DataSource} for the queue. It says what is wrong and what to do, and Spring
 * Boot prints both as a report (APPLICATION FAILED TO START, Description, Action) through
 * {@link JobQueueStartupFailureAnalyzer}, instead of a stack trace that would only lead into the starter.
 */
final class JobQueueStartupException extends IllegalStateException {

	private final String action;

	JobQueueStartupException(String description, String action, Throwable cause) {
		super(description, cause);
		this.action = action;
	}

	/** What to change, for the report's Action section. */
	String action() {
		return action;
	}
}
