package dev.jobqueue;

/** The bounds of {@link JobContext#log} and {@link JobContext#progress}, the same for a test double's. */
public final class JobLogLimits {

	/** The most lines an attempt keeps; those after are counted in a last line. */
	public static final int MAX_LINES = 200;

	/** Where a longer line is cut. */
	public static final int MAX_LINE_LENGTH = 2_000;

	private JobLogLimits() {
	}

	/** Refuses a figure that is no progress: {@code total} at least 1, {@code done} 0 to {@code total}. */
	public static void checkProgress(long done, long total) {
		if (total < 1 || done < 0 || done > total) {
			throw new IllegalArgumentException("progress must be done of total with total at least 1 and done 0 to "
					+ "total, was " + done + " of " + total);
		}
	}
}
