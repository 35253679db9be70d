package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobListener;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.PauseScope;
import dev.jobqueue.store.TableHealth;

/**
 * Reads the queue's health every {@code jobqueue.health.sample-interval} on a thread of its own: the wait of each
 * known queue's oldest due job (one probe of the ready index per priority) and, on PostgreSQL, the job table's
 * dead rows, last vacuum and what holds back its xmin horizon. The gauges and the health indicator read the last
 * {@link Sample}, so a scrape or a health check never reaches the database for these values. They are the
 * cluster's, the same on every node. A queue is known once it is configured, found at startup (with unfinished
 * jobs, or paused), or seen in an enqueue or a claim on this node.
 */
final class QueueHealthSampler implements JobListener, SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(QueueHealthSampler.class);

	private final JobStore store;

	private final Duration interval;

	private final Set<String> queues = new ConcurrentSkipListSet<>();

	private final List<Consumer<String>> newQueueWatchers = new CopyOnWriteArrayList<>();

	private volatile Sample last = Sample.NONE;

	private ScheduledExecutorService thread;

	QueueHealthSampler(JobStore store, Collection<String> configuredQueues, Duration interval) {
		this.store = store;
		this.interval = interval;
		this.queues.addAll(configuredQueues);
	}

	/** Reads every value once and keeps them as the last sample: the loop's body, which tests call directly. */
	Sample runOnce() {
		Map<String, Duration> ages = new TreeMap<>();
		queues.forEach(queue -> ages.put(queue, store.telemetry().oldestReadyAge(queue)));
		Sample sample = new Sample(Map.copyOf(ages), store.telemetry().tableHealth());
		last = sample;
		return sample;
	}

	/** The values of the last read; none before the first. */
	Sample last() {
		return last;
	}

	/** Calls {@code watcher} with every known queue, and from now on with each queue when it becomes known. */
	synchronized void eachQueue(Consumer<String> watcher) {
		newQueueWatchers.add(watcher);
		queues.forEach(watcher);
	}

	@Override
	public void onEnqueued(String queue, String kind) {
		know(queue);
	}

	@Override
	public void onStarted(JobContext job, Duration wait) {
		know(job.queue());
	}

	private void know(String queue) {
		if (queues.contains(queue)) {
			return;
		}
		synchronized (this) {
			if (queues.add(queue)) {
				newQueueWatchers.forEach(watcher -> watcher.accept(queue));
			}
		}
	}

	@Override
	public synchronized void start() {
		thread = Executors.newSingleThreadScheduledExecutor(task -> {
			Thread sampler = new Thread(task, "jobqueue-health-sampler");
			sampler.setDaemon(true);
			return sampler;
		});
		thread.execute(this::discoverQueues);
		thread.scheduleWithFixedDelay(this::sample, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
	}

	@Override
	public synchronized void stop() {
		if (thread != null) {
			thread.shutdownNow();
			thread = null;
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return thread != null;
	}

	/** The queues that hold unfinished jobs or are paused: counted from the partial indexes, once, at startup. */
	private void discoverQueues() {
		try {
			store.telemetry().countUnfinishedByQueue().keySet().forEach(this::know);
			store.pauses().paused(PauseScope.queue).keySet().forEach(this::know);
		}
		catch (RuntimeException ex) {
			log.debug("Could not find the queues holding jobs; the health sampler knows those it sees", ex);
		}
	}

	private void sample() {
		try {
			runOnce();
		}
		catch (RuntimeException ex) {
			// Keep the last values; the next interval tries again. The health indicator checks the database itself.
			log.debug("Could not read the queue-health values", ex);
		}
	}

	/**
	 * The values of one read.
	 *
	 * @param oldestReady by queue, how long its oldest due ready job has waited since it was due
	 * @param table the job table's health; empty on SQLite, and before the first read
	 */
	record Sample(Map<String, Duration> oldestReady, Optional<TableHealth> table) {

		static final Sample NONE = new Sample(Map.of(), Optional.empty());

		Duration oldestReady(String queue) {
			return oldestReady.getOrDefault(queue, Duration.ZERO);
		}
	}
}
