package dev.jobqueue.benchmarks;

import java.util.function.LongConsumer;

/**
 * One queue library under test, driven only through its public API. Every job carries one number
 * (a sequence number or a timestamp) and does nothing but hand it to the workload's counter.
 */
interface Contender extends AutoCloseable {

	String name();

	/** Deletes every job this library stored, so that each run starts from an empty table. */
	void reset();

	/** Enqueues one job in its own transaction. */
	void enqueue(long data);

	/** Enqueues many jobs through the library's own bulk call. */
	void enqueueBulk(long[] data);

	/** Starts this library's workers; each execution calls {@code onExecute} with the job's number. */
	void startWorkers(LongConsumer onExecute);

	void stopWorkers();

	@Override
	void close();
}
