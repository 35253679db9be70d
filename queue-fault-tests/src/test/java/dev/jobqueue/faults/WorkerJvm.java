package dev.jobqueue.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;

/** One worker JVM of a {@link WorkerFleet}, and the faults a test does to it: signals by process id. */
final class WorkerJvm {

	private final String name;

	private final Process process;

	private final Path log;

	WorkerJvm(String name, Process process, Path log) {
		this.name = name;
		this.process = process;
		this.log = log;
	}

	String name() {
		return name;
	}

	long pid() {
		return process.pid();
	}

	boolean isAlive() {
		return process.isAlive();
	}

	/** Waits until its queue runtime has started (the application printed so). */
	WorkerJvm awaitStarted() {
		await("worker " + name + " to start").atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> {
				if (!process.isAlive()) {
					throw new IllegalStateException("worker " + name + " exited at startup:\n" + log());
				}
				return log().contains("fault worker " + pid() + " started");
			});
		return this;
	}

	/** What its clock read as it printed that it had started: this host's, unless a scenario skewed it. */
	Instant clockAtStart() {
		Matcher started = Pattern.compile("fault worker " + pid() + " started at (\\S+)").matcher(log());
		if (!started.find()) {
			throw new IllegalStateException("worker " + name + " has not started");
		}
		return Instant.parse(started.group(1));
	}

	/** SIGKILL: the process vanishes mid-work, no shutdown hook runs. */
	void kill() throws InterruptedException {
		process.destroyForcibly();
		process.waitFor(30, TimeUnit.SECONDS);
	}

	/** SIGTERM: Spring's shutdown hook stops the workers gracefully. Returns how long the JVM took to exit. */
	Duration terminate() throws InterruptedException {
		long start = System.nanoTime();
		process.destroy();
		if (!process.waitFor(60, TimeUnit.SECONDS)) {
			throw new IllegalStateException("worker " + name + " did not exit within 60 s of SIGTERM");
		}
		return Duration.ofNanos(System.nanoTime() - start);
	}

	/** SIGSTOP: the process freezes, its connections stay open and silent. */
	void pause() throws IOException, InterruptedException {
		signal("STOP");
	}

	/** SIGCONT: the frozen process carries on where it was. */
	void resume() throws IOException, InterruptedException {
		signal("CONT");
	}

	int waitForExit() throws InterruptedException {
		return process.waitFor();
	}

	void destroy() {
		process.destroyForcibly();
	}

	String log() {
		try {
			return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			return "(log unreadable: " + ex + ")";
		}
	}

	private void signal(String signal) throws IOException, InterruptedException {
		int exit = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid())).inheritIO().start().waitFor();
		if (exit != 0) {
			throw new IllegalStateException("kill -" + signal + " " + pid() + " exited with " + exit);
		}
	}

	@Override
	public String toString() {
		return name + " (pid " + pid() + ")";
	}
}
