package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.AwaitTimeoutException;
import dev.jobqueue.Job;
import dev.jobqueue.store.OperatorReads;
import dev.jobqueue.store.WakeupSource;

/**
 * Waits for jobs to finish, for {@code JobQueue.await}, on any node, workers or none. Each caller waits on
 * a future of its own; the jobs awaited are looked up again whenever {@code finishes} says jobs may have
 * finished (PostgreSQL's {@code jobqueue_finished} notification, a commit to the SQLite file), and every
 * poll interval while any caller waits: that covers the finishes no notification tells of (a lease that
 * expires into dead) and databases without notifications. Nothing runs until the first await.
 *
 * <p>No finish is missed between a caller's first look and its wait: the caller registers before it looks
 * again, and until {@code finishes} has started listening (it wakes once then, and every waiter is looked
 * up) that second look is left to that wake.
 */
public final class JobAwaiter implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(JobAwaiter.class);

	private final OperatorReads store;

	private final WakeupSource finishes;

	private final Duration pollInterval;

	private final Map<Long, Set<CompletableFuture<Job>>> waiting = new ConcurrentHashMap<>();

	/** Whether a finish committed from now on reaches {@link #lookAgain()}. */
	private volatile boolean listening;

	private ScheduledExecutorService poller;

	/**
	 * @param finishes what wakes awaiters when jobs may have finished, or null to poll only
	 * @param pollInterval how often awaited jobs are looked up without a wake
	 */
	public JobAwaiter(OperatorReads store, WakeupSource finishes, Duration pollInterval) {
		this.store = store;
		this.finishes = finishes;
		this.pollInterval = pollInterval;
		this.listening = finishes == null;
	}

	public Job await(long id, Duration timeout) {
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be a positive duration, was " + timeout);
		}
		Job job = store.find(id).orElseThrow(() -> new IllegalArgumentException("there is no job " + id));
		if (job.state().isFinished()) {
			return job;
		}
		CompletableFuture<Job> future = new CompletableFuture<>();
		waiting.computeIfAbsent(id, key -> ConcurrentHashMap.newKeySet()).add(future);
		try {
			start();
			if (listening) {
				lookUp(id);
			}
			return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			throw new AwaitTimeoutException(id, timeout);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while awaiting job " + id, ex);
		}
		catch (ExecutionException ex) {
			throw (RuntimeException) ex.getCause();
		}
		finally {
			waiting.computeIfPresent(id, (key, futures) -> {
				futures.remove(future);
				return futures.isEmpty() ? null : futures;
			});
		}
	}

	/** Stops the listening and the polling; a later await starts them again. */
	@Override
	public synchronized void close() {
		if (poller != null) {
			poller.shutdownNow();
			poller = null;
			if (finishes != null) {
				finishes.stop();
				listening = false;
			}
		}
	}

	private synchronized void start() {
		if (poller != null) {
			return;
		}
		poller = Executors.newSingleThreadScheduledExecutor(new NamedThreads("jobqueue-await"));
		poller.scheduleWithFixedDelay(this::lookAgain, pollInterval.toMillis(), pollInterval.toMillis(),
				TimeUnit.MILLISECONDS);
		if (finishes != null) {
			finishes.start(ignored -> {
				listening = true;
				lookAgain();
			});
		}
	}

	/** Looks up every awaited job; a failure is logged and left to the next wake or poll. */
	private void lookAgain() {
		for (Long id : List.copyOf(waiting.keySet())) {
			try {
				lookUp(id);
			}
			catch (RuntimeException ex) {
				log.warn("Could not look up awaited job {}; looking again at the next poll", id, ex);
			}
		}
	}

	/** Hands a finished job to its awaiters; a job deleted meanwhile (pruned) fails them, saying so. */
	private void lookUp(long id) {
		Optional<Job> job = store.find(id);
		Set<CompletableFuture<Job>> futures = waiting.getOrDefault(id, Set.of());
		if (job.isEmpty()) {
			futures.forEach(future -> future.completeExceptionally(
					new IllegalStateException("job " + id + " was deleted (pruned) while awaited")));
		}
		else if (job.get().state().isFinished()) {
			futures.forEach(future -> future.complete(job.get()));
		}
	}
}
