package dev.jobqueue;

/**
 * A payload that names its own kind, so that enqueueing it needs no kind string and a misspelled kind
 * cannot compile:
 *
 * <pre>{@code
 * @JobKind("send-mail")
 * record SendMail(String to, String subject) implements JobArgs {
 * }
 *
 * jobs.enqueue(new SendMail("ada@example.com", "Welcome"));
 * }</pre>
 *
 * The kind is read from the type's {@link JobKind} annotation, so that a handler whose payload type is
 * this one may leave its kind out ({@code @JobHandler} without {@code kind},
 * {@code JobQueues.Builder.handler(SendMail.class, …)}): those need the kind of a type, before any
 * instance exists. A type may instead override {@link #kind()} with a constant; it can then be enqueued
 * as above, but its handlers must name their kind.
 */
public interface JobArgs {

	/**
	 * The kind of this payload's jobs: by default the value of its type's {@link JobKind}.
	 * @throws IllegalStateException when the type is not annotated and does not override this method
	 */
	default String kind() {
		JobKind kind = getClass().getAnnotation(JobKind.class);
		if (kind == null) {
			throw new IllegalStateException(getClass().getName()
					+ " implements JobArgs but names no kind: annotate it @JobKind(\"…\") or override kind()");
		}
		return kind.value();
	}
}
