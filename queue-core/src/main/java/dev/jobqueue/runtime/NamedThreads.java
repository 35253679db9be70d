package dev.jobqueue.runtime;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads named after their role, so that a thread dump tells what each one does. */
final class NamedThreads implements ThreadFactory {

	private final String prefix;

	private final AtomicInteger count = new AtomicInteger();

	NamedThreads(String prefix) {
		this.prefix = prefix;
	}

	@Override
	public Thread newThread(Runnable task) {
		Thread thread = new Thread(task, prefix + "-" + count.incrementAndGet());
		thread.setDaemon(true);
		return thread;
	}
}
