package dev.jobqueue.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts worker JVMs on the test classpath, with their output in files, and kills them at the end. */
public final class WorkerProcesses implements AutoCloseable {

	private final List<Process> processes = new ArrayList<>();

	private final Path logs;

	public WorkerProcesses() throws IOException {
		this.logs = Files.createTempDirectory("jobqueue-workers");
	}

	public Process start(Class<?> main, String name, String... args) throws IOException {
		List<String> command = new ArrayList<>(List.of(javaExecutable(), "-Xmx256m", "-cp",
				System.getProperty("java.class.path"), main.getName()));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(logs.resolve(name + ".log").toFile())
			.start();
		processes.add(process);
		return process;
	}

	public Path log(String name) {
		return logs.resolve(name + ".log");
	}

	/** The lines process {@code name} has logged so far. */
	public List<String> lines(String name) {
		try {
			return Files.readAllLines(log(name));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Lines logged at ERROR, and any mention of SQLite being busy or locked, in the given processes' output. */
	public List<String> problems(List<String> names) {
		return names.stream()
			.flatMap(name -> lines(name).stream().map(line -> name + ": " + line))
			.filter(line -> line.contains(" ERROR ") || line.contains("SQLITE_BUSY") || line.contains("locked"))
			.toList();
	}

	/** Sends {@code signal} (STOP, CONT, ...) to {@code process}, as the shell's {@code kill} does. */
	public static void signal(Process process, String signal) throws IOException, InterruptedException {
		int exit = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).inheritIO().start().waitFor();
		if (exit != 0) {
			throw new IllegalStateException("kill -" + signal + " " + process.pid() + " exited with " + exit);
		}
	}

	private static String javaExecutable() {
		return ProcessHandle.current().info().command().orElse("java");
	}

	@Override
	public void close() {
		processes.forEach(Process::destroyForcibly);
	}
}
