package dev.jobqueue.store;

import java.util.function.Consumer;

/**
 * Tells a runtime that jobs may be waiting in a queue because another process enqueued them, so
 * that pollers wake at once rather than at their next poll.
 */
public interface WakeupSource {

	/** Starts watching; {@code wake} is given the name of a queue that may have jobs. */
	void start(Consumer<String> wake);

	void stop();
}
