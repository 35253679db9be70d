package dev.jobqueue.store;

import java.util.Map;

/**
 * The finished steps of resumable jobs ({@link dev.jobqueue.JobContext#step}): read once by an execution that
 * asks for a step, and written once per step, fenced by the job's lease. A job's steps are deleted with it.
 */
public interface StepStore {

	/** The steps job {@code jobId} recorded, by name, each with its result as JSON text, or null for none. */
	Map<String, String> steps(long jobId);

	/**
	 * Records step {@code name} of the job held by {@code lease}, in attempt {@code attempt}, with its result as JSON
	 * text (or null); false, writing nothing, when the lease no longer holds the running job, or the step is
	 * recorded already. In a transactional handler it commits with the handler's transaction.
	 */
	boolean record(Lease lease, int attempt, String name, String result);
}
