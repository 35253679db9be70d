package dev.jobqueue.store;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Tells a runtime that jobs may be waiting in a queue because another process enqueued them, so
 * that pollers wake at once rather than at their next poll.
 */
public interface WakeupSource {

	/** Starts watching; {@code wake} is given the name of a queue that may have jobs. */
	void start(Consumer<String> wake);

	/**
	 * Starts watching, told by {@code wanted} which queues' pollers would act on a wake now: a source that must
	 * read the database to learn whether a queue has jobs may leave the others until they would. By default
	 * every queue is watched as by {@link #start(Consumer)}.
	 */
	default void start(Consumer<String> wake, Predicate<String> wanted) {
		start(wake);
	}

	void stop();
}
