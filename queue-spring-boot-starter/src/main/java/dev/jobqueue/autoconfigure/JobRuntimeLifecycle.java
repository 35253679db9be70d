package dev.jobqueue.autoconfigure;

import org.springframework.context.SmartLifecycle;

import dev.jobqueue.runtime.JobRuntime;

/**
 * Starts the workers once the context is refreshed (every handler registered) and stops them gracefully
 * when it closes: claiming stops, running jobs get {@code jobqueue.shutdown-timeout} to finish, and the
 * leases of the rest are released for other nodes.
 */
final class JobRuntimeLifecycle implements SmartLifecycle {

	private final JobRuntime runtime;

	JobRuntimeLifecycle(JobRuntime runtime) {
		this.runtime = runtime;
	}

	@Override
	public void start() {
		runtime.start();
	}

	@Override
	public void stop() {
		runtime.stop();
	}

	@Override
	public boolean isRunning() {
		return runtime.isRunning();
	}

	/**
	 * The last phase: started after, and stopped before, the web server and every other lifecycle bean, so
	 * that running jobs can still use them while they finish.
	 */
	@Override
	public int getPhase() {
		return DEFAULT_PHASE;
	}
}
