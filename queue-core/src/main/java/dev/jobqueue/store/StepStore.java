package dev.jobqueue.store;

import java.util.Map;

/**
 * The finished steps of resumable jobs ({@link dev.jobqueue.JobContext#step}) and their cursors
 * ({@link dev.jobqueue.JobContext#cursor}): read once by an execution that asks for either, a step written once and
 * a cursor at each save, fenced by the job's lease. A job's steps are deleted with it.
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

	/**
	 * Writes {@code name} of the job held by {@code lease} as {@link #record} does, over what it held before: a
	 * cursor's position. False, writing nothing, when the lease no longer holds the running job.
	 */
	boolean save(Lease lease, int attempt, String name, String result);

	/**
	 * Writes note {@code name} (starting with {@link StepRows#NOTE_PREFIX}) of job {@code jobId}, over what it held:
	 * a handler's log lines and progress. Not fenced by the lease, as they tell what that attempt did whoever holds the
	 * job now; the runtime writes them only outside any transaction of the handler's thread. False, writing nothing, when there is no such job.
	 */
	boolean note(long jobId, int attempt, String name, String result);

	/** The notes of job {@code jobId}, by name, each as JSON text. */
	Map<String, String> notes(long jobId);
}
