package dev.jobqueue.store;

/**
 * The parts every dialect's writes of the step table share: how a write meets a row already there, and the lease's
 * fence.
 */
public final class StepWrites {

	/** A step is recorded once: the first record stands. */
	public static final String ONCE = "DO NOTHING";

	/** A cursor's position and a note are written over the last. */
	public static final String OVER = "DO UPDATE SET attempt = excluded.attempt, result = excluded.result, "
			+ "recorded_at = excluded.recorded_at";

	private StepWrites() {
	}

	/**
	 * The condition on the job's row, after {@code id = :id}, that the lease bound to {@code :token} holds the running
	 * job; none for a {@code null} token, a note's write.
	 */
	public static String fence(Long token) {
		return token == null ? "" : " AND lease_token = :token AND state = 'running'";
	}
}
