package dev.jobqueue.benchmarks;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Enqueue → handler start on an idle worker: jobs enqueued {@code gap} apart, each carrying the
 * wall-clock time of its enqueue in microseconds (the producer may be another JVM on this machine,
 * so both read the same clock). Percentiles by nearest rank.
 */
final class Latency {

	static final Duration GAP = Duration.ofMillis(20);

	private final Report report;

	private final int jobs;

	private final String url;

	Latency(Report report, int jobs, String url) {
		this.report = report;
		this.jobs = jobs;
		this.url = url;
	}

	void sameJvm(Contender contender) throws InterruptedException {
		Queue<Long> latencies = startIdleWorkers(contender);
		produce(contender, jobs);
		finish(contender, latencies, "same-jvm");
	}

	void otherJvm(Contender contender) throws InterruptedException, IOException {
		Queue<Long> latencies = startIdleWorkers(contender);
		Process producer = new ProcessBuilder(javaExecutable(), "-cp", System.getProperty("java.class.path"),
				Main.class.getName(), "produce", contender.name(), Integer.toString(jobs), url).inheritIO().start();
		if (producer.waitFor() != 0) {
			throw new IllegalStateException("the producer JVM failed with exit code " + producer.exitValue());
		}
		finish(contender, latencies, "other-jvm");
	}

	/** Enqueues {@code jobs} jobs, {@link #GAP} apart, each carrying its enqueue time. */
	static void produce(Contender contender, int jobs) throws InterruptedException {
		for (int i = 0; i < jobs; i++) {
			contender.enqueue(nowMicros());
			Thread.sleep(GAP.toMillis());
		}
	}

	private Queue<Long> startIdleWorkers(Contender contender) throws InterruptedException {
		contender.reset();
		Queue<Long> latencies = new ConcurrentLinkedQueue<>();
		contender.startWorkers(enqueuedAt -> latencies.add(nowMicros() - enqueuedAt));
		// One job first, so that the workers are up and idle when the measured jobs come.
		contender.enqueue(nowMicros());
		awaitCount(latencies, 1, Duration.ofSeconds(30));
		latencies.clear();
		return latencies;
	}

	private void finish(Contender contender, Queue<Long> latencies, String mode) throws InterruptedException {
		awaitCount(latencies, jobs, Duration.ofSeconds(30));
		contender.stopWorkers();
		List<Long> sorted = new ArrayList<>(latencies);
		Collections.sort(sorted);
		String notes = String.format("%d of %d jobs started, %d ms apart", sorted.size(), jobs, GAP.toMillis());
		for (int p : new int[] { 50, 95, 99, 100 }) {
			double millis = sorted.isEmpty() ? Double.NaN : sorted.get(rank(sorted.size(), p)) / 1000.0;
			report.figure("latency-" + mode, contender.name(), p == 100 ? "max ms" : "p" + p + " ms", millis, "ms", notes);
		}
	}

	static int rank(int size, int percentile) {
		return Math.max(0, (int) Math.ceil(percentile / 100.0 * size) - 1);
	}

	private static void awaitCount(Queue<Long> latencies, int count, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (latencies.size() < count && System.nanoTime() < deadline) {
			Thread.sleep(5);
		}
	}

	static long nowMicros() {
		Instant now = Instant.now();
		return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
	}

	static String javaExecutable() {
		return ProcessHandle.current().info().command().orElse("java" + (File.separatorChar == '\\' ? ".exe" : ""));
	}
}
