package dev.jobqueue.benchmarks;

import java.util.concurrent.atomic.AtomicLong;

/** The time from the first to the latest of many marks, from any thread. */
final class Stopwatch {

	private final AtomicLong first = new AtomicLong();

	private final AtomicLong last = new AtomicLong();

	void mark() {
		long now = System.nanoTime();
		first.compareAndSet(0, now);
		last.accumulateAndGet(now, Math::max);
	}

	long elapsedNanos() {
		return last.get() - first.get();
	}
}
