package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** Wakes a sleeping poller. A wake that comes while the poller is busy is kept for its next wait. */
final class WakeSignal {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition woken = lock.newCondition();

	private boolean pending;

	void wake() {
		lock.lock();
		try {
			pending = true;
			woken.signalAll();
		}
		finally {
			lock.unlock();
		}
	}

	/** Waits until woken or {@code timeout} passes; consumes the wake. */
	void await(Duration timeout) throws InterruptedException {
		lock.lock();
		try {
			long nanos = timeout.toNanos();
			while (!pending && nanos > 0) {
				nanos = woken.awaitNanos(nanos);
			}
			pending = false;
		}
		finally {
			lock.unlock();
		}
	}
}
