package dev.jobqueue.store.sqlite.support;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Lets the queue's writers in this process take SQLite's write lock one at a time, first come first
 * served. SQLite admits one writer per database anyway; without the gate, every worker thread waiting to
 * write would poll the lock in its busy handler, and who gets it next would be chance. In line here, they
 * wait without polling, in order (a heartbeat is not starved by a stream of completions), and only the
 * head of the line competes with other processes for the lock.
 *
 * <p>Transactional handlers do not pass the gate (their transactions are the application's, see
 * {@link SqliteHandlerTransactions}): a heartbeat never lines up behind a handler at work, only behind the
 * queue's own short writes.
 *
 * <p>The gate never deadlocks: a writer that waited {@link SqliteDataSources#BUSY_TIMEOUT} goes on
 * without it and is left to SQLite's own lock and busy handler, which is correct, only less orderly.
 */
public final class SqliteWriteGate {

	private final Semaphore permit = new Semaphore(1, true);

	/** Runs {@code write} holding the gate. */
	public <T> T write(Supplier<T> write) {
		boolean entered = enter();
		try {
			return write.get();
		}
		finally {
			if (entered) {
				leave();
			}
		}
	}

	/** Waits for the gate; false when the wait timed out or was interrupted, and the caller goes on without it. */
	public boolean enter() {
		try {
			return permit.tryAcquire(SqliteDataSources.BUSY_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** Only after an {@link #enter()} that returned true. */
	public void leave() {
		permit.release();
	}
}
