package dev.jobqueue.benchmarks;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

import dev.jobqueue.store.postgres.PostgresDialect;

/**
 * A producer JVM of the multi-node workload: enqueues one job at a time at a fixed rate, as request threads of
 * an application node would, each carrying the wall-clock time of its enqueue in microseconds. It runs no
 * workers. Each job is due at its slot in the schedule, not after the previous enqueue, so a slow enqueue does
 * not lower the rate.
 */
final class RateProducer {

	private RateProducer() {
	}

	static Process start(String url, int perSecond, int seconds) throws IOException {
		return new ProcessBuilder(Latency.javaExecutable(), "-cp", System.getProperty("java.class.path"),
				Main.class.getName(), "produce-at", url, Integer.toString(perSecond), Integer.toString(seconds))
			.inheritIO()
			.start();
	}

	/** The producer's side, in its own JVM. */
	static void run(String url, int perSecond, int seconds) throws InterruptedException {
		try (Database database = new Database(url, 2); JobqueueContender contender = new JobqueueContender(database)) {
			long gap = 1_000_000_000L / perSecond;
			long start = System.nanoTime();
			for (long i = 0; i < (long) perSecond * seconds; i++) {
				LockSupport.parkNanos(start + i * gap - System.nanoTime());
				contender.enqueue(Latency.nowMicros());
			}
			// The last enqueues' notification goes out from the store's notifier thread, on a connection of this pool.
			Thread.sleep(PostgresDialect.NOTIFY_INTERVAL.multipliedBy(10).toMillis());
		}
	}
}
