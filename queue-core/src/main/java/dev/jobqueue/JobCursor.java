package dev.jobqueue;

/**
 * A handler's position through a long loop, kept with the job ({@link JobContext#cursor}): each attempt starts from
 * the position saved last, by itself or an earlier attempt, rather than from the beginning.
 *
 * <pre>{@code
 * JobCursor<Long> after = context.cursor("rows", Long.class, 0L);
 * for (Row row : rows.after(after.position())) {
 *     export(row);
 *     after.save(row.id());
 * }
 * }</pre>
 *
 * @param <T> the position's type, written as JSON like a job's result
 */
public interface JobCursor<T> {

	/** The position saved last, by this attempt or an earlier one; the start given before the first save. */
	T position();

	/**
	 * Saves {@code position} over the last one, before it returns: one statement, fenced by the job's lease, so a loop
	 * that saves after every item pays one per item. In a transactional handler it commits with the handler's
	 * writes, or rolls back with them.
	 *
	 * @throws IllegalStateException when this worker no longer holds the job's lease; nothing is saved
	 * @throws NonRetryableException when the position cannot be written as JSON, or is longer than
	 * {@code jobqueue.max-result-length}, as a step's result is refused; nothing is saved
	 */
	void save(T position);
}
