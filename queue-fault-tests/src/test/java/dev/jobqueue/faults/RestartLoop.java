package dev.jobqueue.faults;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Keeps one worker of a {@link WorkerFleet} running, as a process supervisor would: whenever it exits,
 * another is started in its place.
 */
final class RestartLoop implements AutoCloseable {

	private final Thread thread;

	private volatile boolean running = true;

	RestartLoop(WorkerFleet fleet, String name) {
		this.thread = new Thread(() -> superviseWith(fleet, name), "restart-loop-" + name);
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private void superviseWith(WorkerFleet fleet, String name) {
		try {
			while (running) {
				fleet.start(name).waitForExit();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() throws InterruptedException {
		running = false;
		thread.interrupt();
		thread.join(5_000);
	}
}
