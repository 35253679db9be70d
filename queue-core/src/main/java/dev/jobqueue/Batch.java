package dev.jobqueue;

/**
 * Jobs enqueued together as one batch, with callback jobs that run once it has finished: {@link #onFinish} once
 * every job of the batch has finished, whatever its end, and {@link #onFailure} at the first of them to end dead.
 * {@link #enqueue()} writes the jobs, the callbacks and the batch, all or nothing, in the caller's transaction if
 * there is one. A callback waits as {@link JobState#waiting} until it is due, and runs exactly once cluster-wide,
 * whatever the order in which the batch's last jobs end on different nodes; a failure callback still waiting when
 * the batch finishes without a dead job is cancelled. Its handler reads the batch's counts per outcome with
 * {@link JobContext#batch()}. A batch's jobs and callbacks take no {@link EnqueueOptions#after} and no unique key.
 * Not thread-safe: one thread builds a batch and enqueues it once.
 *
 * <pre>{@code
 * EnqueuedBatch batch = queue.batch()
 *         .add("import-row", row1)
 *         .add("import-row", row2)
 *         .onFinish("import-report", importId)
 *         .onFailure("import-alert", importId)
 *         .enqueue();
 * }</pre>
 */
public interface Batch {

	/** The most jobs one batch holds. */
	int MAX_JOBS = 100_000;

	/** Adds a job to the batch, with the default options. */
	default Batch add(String kind, Object payload) {
		return add(kind, payload, EnqueueOptions.defaults());
	}

	/** Adds a job to the batch. */
	Batch add(String kind, Object payload, EnqueueOptions options);

	/** {@link #add(String, Object)} of a typed job, its kind from {@link JobArgs}. */
	default Batch add(JobArgs args) {
		return add(args, EnqueueOptions.defaults());
	}

	/** {@link #add(String, Object, EnqueueOptions)} of a typed job. */
	default Batch add(JobArgs args, EnqueueOptions options) {
		return add(kindOf(args), args, options);
	}

	/** The job that runs once every job of the batch has finished, with the default options. */
	default Batch onFinish(String kind, Object payload) {
		return onFinish(kind, payload, EnqueueOptions.defaults());
	}

	/** The job that runs once every job of the batch has finished; replaces one set before. */
	Batch onFinish(String kind, Object payload, EnqueueOptions options);

	/** {@link #onFinish(String, Object)} of a typed job. */
	default Batch onFinish(JobArgs args) {
		return onFinish(kindOf(args), args, EnqueueOptions.defaults());
	}

	/** The job that runs when the first job of the batch ends dead, with the default options. */
	default Batch onFailure(String kind, Object payload) {
		return onFailure(kind, payload, EnqueueOptions.defaults());
	}

	/** The job that runs when the first job of the batch ends dead; replaces one set before. */
	Batch onFailure(String kind, Object payload, EnqueueOptions options);

	/** {@link #onFailure(String, Object)} of a typed job. */
	default Batch onFailure(JobArgs args) {
		return onFailure(kindOf(args), args, EnqueueOptions.defaults());
	}

	/** Enqueues the jobs, the callbacks and the batch, all or nothing. */
	EnqueuedBatch enqueue();

	private static String kindOf(JobArgs args) {
		if (args == null) {
			throw new IllegalArgumentException("a batch's job needs its payload: a JobArgs payload names its kind");
		}
		return args.kind();
	}
}
