package dev.jobqueue.autoconfigure;

import org.springframework.context.SmartLifecycle;

import dev.jobqueue.runtime.JobRuntime;

/**
 * Starts the workers once the context is refreshed (every handler registered) and stops them gracefully
 * when it closes: claiming stops, running jobs get {@code jobqueue.shutdown-timeout} to finish, the rest
 * are interrupted and get {@code jobqueue.shutdown-grace} to exit; each job whose handler exited is
 * released for other nodes, and a handler still running keeps its lease until it or the process ends.
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
