package dev.jobqueue.benchmarks;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/** Counts the executions of jobs numbered 0..n-1, so that a drain can report duplicates and losses. */
final class Executions {

	private final AtomicIntegerArray counts;

	private final AtomicInteger distinct = new AtomicInteger();

	private final AtomicInteger outOfRange = new AtomicInteger();

	Executions(int n) {
		this.counts = new AtomicIntegerArray(n);
	}

	/** Returns how many distinct jobs have run, counting this one, when it is its first run; else 0. */
	int record(long job) {
		if (job < 0 || job >= counts.length()) {
			outOfRange.incrementAndGet();
			return 0;
		}
		return counts.incrementAndGet((int) job) == 1 ? distinct.incrementAndGet() : 0;
	}

	int distinct() {
		return distinct.get();
	}

	/** Executions beyond the first of each job (plus any of a number never enqueued). */
	int duplicates() {
		int extra = outOfRange.get();
		for (int i = 0; i < counts.length(); i++) {
			extra += Math.max(0, counts.get(i) - 1);
		}
		return extra;
	}

	int lost() {
		return counts.length() - distinct.get();
	}
}
