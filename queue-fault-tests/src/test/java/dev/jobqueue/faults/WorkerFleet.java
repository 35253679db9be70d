package dev.jobqueue.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.jobqueue.faults.app.Canary;
import dev.jobqueue.faults.app.FaultWorkerApplication;

/**
 * Starts {@link FaultWorkerApplication} JVMs on the test classpath, each with its output in a file, and
 * kills whatever is left of them at the end. Timings are short so that faults play out in seconds: a 2 s
 * lease heartbeated every 500 ms, a reaper every 250 ms, fast retries, and no web server. A test overrides any
 * property.
 */
final class WorkerFleet implements AutoCloseable {

	static final Map<String, String> FAST = Map.of("jobqueue.lease-duration", "2s",
			"jobqueue.heartbeat-interval", "500ms", "jobqueue.reaper-interval", "250ms", "jobqueue.poll-interval",
			"100ms", "jobqueue.retry.initial-backoff", "50ms", "jobqueue.retry.max-backoff", "200ms",
			"jobqueue.retry.jitter", "0", "jobqueue.shutdown-timeout", "5s", "spring.main.web-application-type", "none");

	/** What the queue logs of an outcome write that changed nothing because the lease was lost. */
	private static final String FENCED = "its outcome was not written";

	private final WorkerDatabases databases;

	private final Map<String, String> properties = new LinkedHashMap<>(FAST);

	private final Path logs;

	private final Path canaryMark;

	private final List<WorkerJvm> started = new ArrayList<>();

	WorkerFleet(String jdbcUrl, Map<String, String> overrides) throws IOException {
		this(name -> jdbcUrl, overrides);
	}

	/** Workers that reach the database each its own way: see {@link WorkerDatabases}. */
	WorkerFleet(WorkerDatabases databases, Map<String, String> overrides) throws IOException {
		this.databases = databases;
		this.properties.putAll(overrides);
		this.logs = Files.createTempDirectory("jobqueue-faults");
		this.canaryMark = logs.resolve("canary-mark");
	}

	WorkerFleet(String jdbcUrl) throws IOException {
		this(jdbcUrl, Map.of());
	}

	/** Starts a worker and returns at once; {@link WorkerJvm#awaitStarted()} waits for it. */
	WorkerJvm start(String name) throws IOException {
		return start(name, Map.of());
	}

	/** Starts a worker with {@code own} properties besides the fleet's, and returns at once. */
	WorkerJvm start(String name, Map<String, String> own) throws IOException {
		return start(name, own, Map.of());
	}

	/** Starts a worker as {@link #start(String, Map)} does, with {@code environment} added to its process's. */
	synchronized WorkerJvm start(String name, Map<String, String> own, Map<String, String> environment)
			throws IOException {
		List<String> command = new ArrayList<>(List.of(javaExecutable(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
				"-D" + Canary.MARK_PROPERTY + "=" + canaryMark, "-cp", System.getProperty("java.class.path"),
				FaultWorkerApplication.class.getName(), "--spring.datasource.url=" + databases.jdbcUrl(name)));
		// One argument per property, the worker's own over the fleet's: Spring joins repeated arguments with commas.
		Map<String, String> merged = new LinkedHashMap<>(properties);
		merged.putAll(own);
		merged.forEach((key, value) -> command.add("--" + key + "=" + value));
		Path log = logs.resolve(name + "-" + started.size() + ".log");
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
		builder.environment().putAll(environment);
		Process process = builder.start();
		WorkerJvm worker = new WorkerJvm(name, process, log);
		started.add(worker);
		databases.started(name, process.pid());
		return worker;
	}

	/** Starts workers and waits until all of them run. */
	List<WorkerJvm> startAll(String... names) throws IOException {
		List<WorkerJvm> workers = new ArrayList<>();
		for (String name : names) {
			workers.add(start(name));
		}
		workers.forEach(WorkerJvm::awaitStarted);
		return workers;
	}

	/** Every JVM this fleet started, in order, including those that exited. */
	synchronized List<WorkerJvm> started() {
		return List.copyOf(started);
	}

	/** Outcome writes the workers found fenced off (the lease lost to another worker), as they logged them. */
	synchronized long fencedWrites() {
		return started.stream().mapToLong(worker -> worker.log().lines().filter(line -> line.contains(FENCED)).count())
			.sum();
	}

	/** The file the {@link Canary} writes to when a worker initializes it; absent while none did. */
	Path canaryMark() {
		return canaryMark;
	}

	private static String javaExecutable() {
		return ProcessHandle.current().info().command().orElse("java");
	}

	@Override
	public synchronized void close() {
		started.forEach(WorkerJvm::destroy);
	}

	/**
	 * Where each worker reaches the database: a JDBC URL chosen before it starts, by its name; told the
	 * worker's process id as soon as it runs, before it opens a connection (a JVM and Spring take seconds).
	 */
	@FunctionalInterface
	interface WorkerDatabases {

		String jdbcUrl(String worker);

		default void started(String worker, long pid) {
		}
	}
}
