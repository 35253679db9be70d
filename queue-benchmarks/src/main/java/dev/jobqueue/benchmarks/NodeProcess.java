package dev.jobqueue.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A worker node in a JVM of its own, for the multi-node workload: {@link JobqueueContender}'s runtime (32 threads,
 * jobqueue's defaults) working one queue, on a pool of {@link #POOL} connections. The node prints {@code node started} once its runtime
 * runs, then a line {@code executed <job number> <start micros>} for each execution, and stops when its standard input
 * closes: the parent's side of the pipe is the node's off switch.
 */
final class NodeProcess implements AutoCloseable {

	/**
	 * Enough for 32 handler threads that do not touch the database and one queue: the runtime's statements need
	 * at most 7 at once (docs/performance.md, "Connections per node").
	 */
	static final int POOL = 8;

	private static final Duration FLUSH = Duration.ofMillis(20);

	/** Long enough for a JVM to start on a machine busy with others. */
	private static final Duration STARTUP = Duration.ofSeconds(60);

	/** Lines of the node's protocol begin with these; the rest of its output (its log) is passed on to stderr. */
	private static final String STARTED = "node started";

	private static final String EXECUTED = "executed ";

	/** Where a node's executions go, as the parent reads them. */
	interface Sink {

		void executed(long job, long startMicros);

	}

	private final Process process;

	private final CountDownLatch started = new CountDownLatch(1);

	private final Thread reader;

	private NodeProcess(Process process, Sink sink) {
		this.process = process;
		this.reader = daemon("node-output", () -> read(sink));
	}

	static NodeProcess start(String url, String queue, Sink sink) throws IOException {
		Process process = new ProcessBuilder(Latency.javaExecutable(), "-cp", System.getProperty("java.class.path"),
				Main.class.getName(), "node", url, queue).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		return new NodeProcess(process, sink);
	}

	/** {@code count} nodes working {@code queue}, once every one of them has started. */
	static List<NodeProcess> startAll(String url, String queue, int count, Sink sink) throws IOException,
			InterruptedException {
		List<NodeProcess> nodes = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			nodes.add(start(url, queue, sink));
		}
		for (NodeProcess node : nodes) {
			node.awaitStarted();
		}
		return nodes;
	}

	static void stopAll(List<NodeProcess> nodes) throws IOException, InterruptedException {
		for (NodeProcess node : nodes) {
			node.close();
		}
	}

	private void awaitStarted() throws InterruptedException {
		if (!started.await(STARTUP.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException("a node JVM did not start within " + STARTUP.toSeconds() + " s");
		}
	}

	private void read(Sink sink) {
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line = lines.readLine(); line != null; line = lines.readLine()) {
				if (line.equals(STARTED)) {
					started.countDown();
				}
				else if (line.startsWith(EXECUTED)) {
					int space = line.indexOf(' ', EXECUTED.length());
					sink.executed(Long.parseLong(line, EXECUTED.length(), space, 10),
							Long.parseLong(line, space + 1, line.length(), 10));
				}
				else {
					System.err.println(line);
				}
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("lost a node JVM's output", ex);
		}
	}

	/** Stops the node, which first stops its runtime, and waits until every line it printed has been read. */
	@Override
	public void close() throws IOException, InterruptedException {
		process.getOutputStream().close();
		if (!process.waitFor(30, TimeUnit.SECONDS)) {
			process.destroyForcibly().waitFor();
			throw new IllegalStateException("a node JVM did not stop within 30 s of being asked to");
		}
		reader.join();
	}

	/** The node's side, in its own JVM: runs until its standard input closes. */
	static void run(String url, String queue) throws Exception {
		try (Database database = new Database(url, POOL);
				JobqueueContender contender = new JobqueueContender(database, 0, queue)) {
			Queue<String> executions = new ConcurrentLinkedQueue<>();
			contender.startWorkers(job -> executions.add(EXECUTED + job + " " + Latency.nowMicros()));
			System.out.println(STARTED);
			System.out.flush();
			Thread printer = daemon("node-printer", () -> printEvery(executions));
			System.in.transferTo(OutputStream.nullOutputStream());
			contender.stopWorkers();
			printer.interrupt();
			printer.join();
			print(executions);
		}
	}

	private static Thread daemon(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

	/** Batched, so that printing costs the node next to nothing beside its handlers. */
	private static void printEvery(Queue<String> executions) {
		try {
			while (true) {
				print(executions);
				Thread.sleep(FLUSH.toMillis());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void print(Queue<String> executions) {
		StringBuilder lines = new StringBuilder();
		for (String line = executions.poll(); line != null; line = executions.poll()) {
			lines.append(line).append('\n');
		}
		System.out.print(lines);
		System.out.flush();
	}
}
