package dev.jobqueue.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

/** Enqueue one at a time, enqueue in bulk, and drain pre-enqueued jobs, for one library. */
final class Throughput {

	/** The unmeasured jobs before a measured enqueue, and by default before a measured drain. */
	static final int WARM_UP = 1000;

	static final int PRODUCERS = 16;

	static final int BULK_WARM_UP_CALLS = 2;

	static final int BULK_CALLS = 3;

	private final Report report;

	private final int jobs;

	/** How many jobs the unmeasured drain before the measured one runs. */
	private final int drainWarmUpJobs;

	Throughput(Report report, int jobs, int drainWarmUpJobs) {
		this.report = report;
		this.jobs = jobs;
		this.drainWarmUpJobs = drainWarmUpJobs;
	}

	/** {@code jobs} enqueues from one thread, each its own transaction, after a warm-up that is not counted. */
	void enqueueOneAtATime(Contender contender) {
		contender.reset();
		LongStream.range(0, Math.min(WARM_UP, jobs)).forEach(contender::enqueue);
		contender.reset();
		long start = System.nanoTime();
		for (long i = 0; i < jobs; i++) {
			contender.enqueue(i);
		}
		report.figure("enqueue", contender.name(), "jobs/s", perSecond(jobs, System.nanoTime() - start), "1/s",
				jobs + " jobs, one thread, one transaction each");
	}

	/**
	 * {@code jobs} enqueues from {@link #PRODUCERS} threads at once, each enqueue its own transaction, as
	 * request threads enqueue: what one-at-a-time enqueues reach when their commits can overlap (and where
	 * something all of them wait for at commit, such as PostgreSQL's notification queue, serializes them).
	 */
	void enqueueConcurrently(Contender contender) throws InterruptedException {
		contender.reset();
		LongStream.range(0, Math.min(WARM_UP, jobs)).parallel().forEach(contender::enqueue);
		contender.reset();
		AtomicLong next = new AtomicLong();
		List<Thread> producers = new ArrayList<>();
		long start = System.nanoTime();
		for (int i = 0; i < PRODUCERS; i++) {
			Thread producer = new Thread(() -> {
				for (long job = next.getAndIncrement(); job < jobs; job = next.getAndIncrement()) {
					contender.enqueue(job);
				}
			});
			producer.start();
			producers.add(producer);
		}
		for (Thread producer : producers) {
			producer.join();
		}
		report.figure("enqueue-16", contender.name(), "jobs/s", perSecond(jobs, System.nanoTime() - start), "1/s",
				jobs + " jobs, " + PRODUCERS + " threads, one transaction each");
	}

	/**
	 * {@code jobs} jobs in one call of the library's bulk API: {@link #BULK_WARM_UP_CALLS} calls unmeasured,
	 * then the median of {@link #BULK_CALLS}. One call of 20,000 jobs takes a fraction of a second, so a
	 * single call measures the JIT's progress as much as the library: the library that ran later in the
	 * same JVM found the driver's code compiled by the ones before it.
	 */
	void enqueueBulk(Contender contender) {
		double[] rates = new double[BULK_WARM_UP_CALLS + BULK_CALLS];
		long[] data = LongStream.range(0, jobs).toArray();
		for (int call = 0; call < rates.length; call++) {
			contender.reset();
			long start = System.nanoTime();
			contender.enqueueBulk(data);
			rates[call] = perSecond(jobs, System.nanoTime() - start);
		}
		report.figure("bulk", contender.name(), "jobs/s", Summary.medianAfter(rates, BULK_WARM_UP_CALLS), "1/s",
				String.format("%d jobs in one bulk call, median of %d calls after %d unmeasured; every call %s", jobs,
						BULK_CALLS, BULK_WARM_UP_CALLS, Summary.rounded(rates)));
	}

	/**
	 * Drains {@code drainWarmUpJobs} jobs unmeasured (JIT, connection pools, the library's first-use work), then
	 * measures a drain of {@code jobs}. The default, {@link #WARM_UP}, leaves a library's JIT compiling through much
	 * of a 20,000-job drain; a longer warm-up measures the libraries' steady state.
	 */
	void drain(Contender contender, Duration timeout) throws InterruptedException {
		drainOnce(contender, drainWarmUpJobs, timeout);
		Drained drained = drainOnce(contender, jobs, timeout);
		String outcome = drained.timedOut()
				? String.format("TIMED OUT after %d s with %d of %d done", timeout.toSeconds(), drained.executions().distinct(), jobs)
				: jobs + " jobs";
		report.figure("drain", contender.name(), "jobs/s", perSecond(drained.executions().distinct(), drained.nanos()), "1/s",
				String.format("%s, duplicates %d, lost %d, heap peak %d MB of max %d MB, after a warm-up drain of %d",
						outcome, drained.executions().duplicates(), drained.executions().lost(), heapPeakMegabytes(),
						Runtime.getRuntime().maxMemory() >> 20, drainWarmUpJobs));
	}

	/**
	 * Enqueues {@code count} no-op jobs with the workers stopped, then starts them and times from the
	 * first execution to the last; then waits half a second more for late duplicates. Gives up at the
	 * timeout, counting what ran.
	 */
	static Drained drainOnce(Contender contender, int count, Duration timeout) throws InterruptedException {
		contender.reset();
		contender.enqueueBulk(LongStream.range(0, count).toArray());
		Executions executions = new Executions(count);
		Stopwatch watch = new Stopwatch();
		contender.startWorkers(job -> {
			watch.mark();
			executions.record(job);
		});
		long deadline = System.nanoTime() + timeout.toNanos();
		while (executions.distinct() < count && System.nanoTime() < deadline) {
			Thread.sleep(5);
		}
		boolean timedOut = executions.distinct() < count;
		long elapsed = timedOut ? timeout.toNanos() : watch.elapsedNanos();
		Thread.sleep(500);
		contender.stopWorkers();
		return new Drained(executions, elapsed, timedOut);
	}

	record Drained(Executions executions, long nanos, boolean timedOut) {
	}

	static double perSecond(long count, long nanos) {
		return count * 1e9 / Math.max(1, nanos);
	}

	private static long heapPeakMegabytes() {
		long peak = 0;
		for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
			if (pool.getType() == MemoryType.HEAP) {
				peak += pool.getPeakUsage().getUsed();
			}
		}
		return peak >> 20;
	}
}
