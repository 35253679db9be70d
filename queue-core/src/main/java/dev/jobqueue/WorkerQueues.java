package dev.jobqueue;

import java.util.Map;

/**
 * The queues this node works, and how many of each one's jobs it runs at once: set at startup
 * ({@code jobqueue.queues.<name>.concurrency}), changed while it runs by {@link #resize}. Per node, as the threads
 * are: every other node keeps its own sizes.
 */
public interface WorkerQueues {

	/** The queues of a node that runs no workers. */
	WorkerQueues NONE = new WorkerQueues() {

		@Override
		public Map<String, Integer> concurrency() {
			return Map.of();
		}

		@Override
		public void resize(String queue, int concurrency) {
			throw new IllegalStateException("this node runs no workers (jobqueue.worker.enabled=false), so it has no "
					+ "queue to resize; resize the queue on a node that works it");
		}
	};

	/** Each queue this node works, with how many of its jobs it runs at once; empty on a node without workers. */
	Map<String, Integer> concurrency();

	/**
	 * Runs up to {@code concurrency} of {@code queue}'s jobs at once on this node from now on, until its next resize
	 * or until the process ends (a restart starts from the configured size). Growing claims for the new threads at
	 * once; shrinking lets the jobs that run finish, and claims no more until fewer run than the new size. The node
	 * registry shows the new size within the call, and explain counts with it.
	 *
	 * @throws IllegalArgumentException when {@code concurrency} is below 1 (pause a queue to stop its jobs from
	 * starting), or when this node does not work {@code queue}, naming those it works; nothing changes then
	 * @throws IllegalStateException on a node that runs no workers ({@code jobqueue.worker.enabled=false})
	 */
	void resize(String queue, int concurrency);
}
