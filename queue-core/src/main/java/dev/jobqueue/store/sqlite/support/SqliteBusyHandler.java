package dev.jobqueue.store.sqlite.support;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

import org.sqlite.BusyHandler;

/**
 * Waits for SQLite's write lock by trying again every millisecond or so, up to a deadline. SQLite's own
 * busy timeout sleeps longer and longer between tries (up to 100 ms), which is fair to nobody when several
 * processes write all the time: a waiter asleep for 100 ms misses every moment the lock was free, and can
 * wait for seconds while others take turns, long enough to lose a lease it could not heartbeat. A short,
 * jittered sleep gives every waiter its chance at about the rate the lock changes hands.
 *
 * <p>One handler per connection, and a connection is used by one thread at a time.
 */
public final class SqliteBusyHandler extends BusyHandler {

	private static final long MIN_SLEEP_NANOS = 500_000;

	private static final long MAX_SLEEP_NANOS = 1_500_000;

	private final long timeoutNanos;

	private long deadline;

	public SqliteBusyHandler(Duration timeout) {
		this.timeoutNanos = timeout.toNanos();
	}

	/** Returns non-zero to try again, zero to give up and let SQLite report busy. */
	@Override
	protected int callback(int previousCalls) {
		long now = System.nanoTime();
		if (previousCalls == 0) {
			deadline = now + timeoutNanos;
		}
		if (now - deadline >= 0) {
			return 0;
		}
		// An interrupt must not turn the wait into a spin (a parked thread with the flag set does not sleep);
		// like SQLite's own handler, this one does not answer interrupts, and leaves the flag for the caller.
		boolean interrupted = Thread.interrupted();
		LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(MIN_SLEEP_NANOS, MAX_SLEEP_NANOS));
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
		return 1;
	}
}
