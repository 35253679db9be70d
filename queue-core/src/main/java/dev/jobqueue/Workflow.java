package dev.jobqueue;

import java.util.Map;

/**
 * A graph of jobs enqueued together, each named within the graph and run after the jobs it names: fan-out, fan-in,
 * diamonds. {@link #enqueue()} writes every job, all or nothing, in the caller's transaction if there is one; a job
 * that runs after others waits as {@link JobState#waiting} until they have finished ({@link EnqueueOptions#after}).
 * A name added twice is refused at {@link #add}; a job that runs after a name no job of the workflow has, or a
 * cycle, at {@link #enqueue()}, which then writes nothing. A job may name jobs added after it. Not thread-safe: one
 * thread builds a workflow and enqueues it once.
 *
 * <pre>{@code
 * Map<String, Long> ids = queue.workflow()
 *         .add("welcome", "send-welcome", user)
 *         .add("report", "build-report", user)
 *         .add("summary", "send-summary", user, "welcome", "report")
 *         .enqueue();
 * }</pre>
 */
public interface Workflow {

	/** Adds job {@code name}, run after the jobs of this workflow named {@code after}, with the default options. */
	default Workflow add(String name, String kind, Object payload, String... after) {
		return add(name, kind, payload, EnqueueOptions.defaults(), after);
	}

	/**
	 * Adds job {@code name}, run after the jobs of this workflow named {@code after}. The options may name jobs
	 * outside the workflow too ({@link EnqueueOptions#after}); the workflow's own names come on top.
	 */
	Workflow add(String name, String kind, Object payload, EnqueueOptions options, String... after);

	/** {@link #add(String, String, Object, String...)} of a typed job, its kind from {@link JobArgs}. */
	default Workflow add(String name, JobArgs args, String... after) {
		return add(name, args, EnqueueOptions.defaults(), after);
	}

	/** {@link #add(String, String, Object, EnqueueOptions, String...)} of a typed job. */
	default Workflow add(String name, JobArgs args, EnqueueOptions options, String... after) {
		if (args == null) {
			throw new IllegalArgumentException("job '" + name + "' needs its payload: a JobArgs payload names its kind");
		}
		return add(name, args.kind(), args, options, after);
	}

	/**
	 * What a dependency that ends dead or cancelled does to the jobs of this workflow that run after it; the
	 * workflow's policy, for all its jobs ({@link DependencyFailure#CANCEL} by default).
	 */
	Workflow whenDependencyFails(DependencyFailure policy);

	/** Enqueues every job, all or nothing; returns their ids by name, in the order they were added. */
	Map<String, Long> enqueue();
}
