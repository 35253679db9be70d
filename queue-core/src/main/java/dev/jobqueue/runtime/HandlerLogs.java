package dev.jobqueue.runtime;

/**
 * The log of the handler running on the current thread, for a bridge from a logging library, such as the starter's
 * Logback appender ({@code jobqueue.worker.capture-logs}): a line given here is that handler's
 * {@link dev.jobqueue.JobContext#log}, bounded as those are. A thread that runs no handler has none.
 */
public final class HandlerLogs {

	private static final ThreadLocal<Execution> RUNNING = new ThreadLocal<>();

	private HandlerLogs() {
	}

	/** Logs {@code line} with the job whose handler runs on this thread; false, doing nothing, when none does. */
	public static boolean log(String line) {
		Execution execution = RUNNING.get();
		if (execution == null) {
			return false;
		}
		execution.log(line);
		return true;
	}

	/** From the handler's start on this thread, until {@link #done}. */
	static void running(Execution execution) {
		RUNNING.set(execution);
	}

	static void done() {
		RUNNING.remove();
	}
}
