package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobState;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.PauseScope;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Gauges {@code jobqueue.jobs} by queue and state, and {@code jobqueue.queue.paused} by queue. The counts come from grouped queries whose results
 * are cached: however often the registry is scraped, and however many gauges read them, the database
 * answers at most once per period. Ready and running jobs, the ones someone on call watches, are
 * counted every {@link #REFRESH} from the partial indexes that hold just them. The finished states are
 * counted every {@link #FINISHED_REFRESH}, each up to {@code JobCounts.FINISHED_CAP} per queue (an exact count
 * would read every finished row the table keeps, a day of succeeded jobs by default), so a gauge at the cap
 * means at least that many. They are counts of the whole table, so every node reports the
 * same values. The paused queues are read every {@link #REFRESH} too, from their small table. A queue
 * gets its gauges when it is configured, found at startup (with jobs, or paused), or seen in an enqueue
 * or a claim; registering never happens inside a scrape.
 */
final class JobCountGauges implements MeterBinder, JobListener {

	static final Duration REFRESH = Duration.ofSeconds(5);

	static final Duration FINISHED_REFRESH = Duration.ofMinutes(1);

	private static final Logger log = LoggerFactory.getLogger(JobCountGauges.class);

	private final Set<String> queues = new LinkedHashSet<>();

	private final Cached<Map<String, Map<JobState, Long>>> unfinished;

	private final Cached<Map<String, Map<JobState, Long>>> all;

	private final Cached<Map<String, Instant>> paused;

	private MeterRegistry registry;

	JobCountGauges(JobStore store, Collection<String> configuredQueues, LongSupplier nanoClock) {
		this.unfinished = new Cached<>(store.telemetry()::countUnfinishedByQueue, Map.of(), REFRESH, nanoClock);
		this.all = new Cached<>(store.telemetry()::countByQueueAndState, Map.of(), FINISHED_REFRESH, nanoClock);
		this.paused = new Cached<>(() -> store.pauses().paused(PauseScope.queue), Map.of(), REFRESH, nanoClock);
		this.queues.addAll(configuredQueues);
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		List<String> known;
		synchronized (queues) {
			this.registry = registry;
			known = List.copyOf(queues);
		}
		known.forEach(queue -> registerGauges(registry, queue));
		all.current().keySet().forEach(this::register);
		unfinished.current().keySet().forEach(this::register);
		paused.current().keySet().forEach(this::register);
	}

	@Override
	public void onEnqueued(String queue, String kind) {
		register(queue);
	}

	@Override
	public void onStarted(JobContext job, Duration wait) {
		register(job.queue());
	}

	/** How many jobs of {@code queue} are in {@code state}, as of the last refresh of that state's count. */
	double count(String queue, JobState state) {
		Cached<Map<String, Map<JobState, Long>>> counts = state.isFinished() ? all : unfinished;
		return counts.current().getOrDefault(queue, Map.of()).getOrDefault(state, 0L);
	}

	/** 1 when {@code queue} is paused, 0 when not, as of the last read of the paused queues. */
	double paused(String queue) {
		return paused.current().containsKey(queue) ? 1 : 0;
	}

	/** Registers the gauges of a queue not seen before; no lock is held while the registry works. */
	private void register(String queue) {
		MeterRegistry target;
		synchronized (queues) {
			if (!queues.add(queue) || registry == null) {
				return;
			}
			target = registry;
		}
		registerGauges(target, queue);
	}

	private void registerGauges(MeterRegistry target, String queue) {
		for (JobState state : JobState.values()) {
			Gauge.builder("jobqueue.jobs", this, gauges -> gauges.count(queue, state))
				.description("Jobs in the database by queue and state; ready and running refreshed at most every "
						+ REFRESH.toSeconds() + " s, the finished states every " + FINISHED_REFRESH.toSeconds() + " s")
				.tags("queue", queue, "state", state.name())
				.strongReference(true)
				.register(target);
		}
		Gauge.builder("jobqueue.queue.paused", this, gauges -> gauges.paused(queue))
			.description("1 while the queue is paused on every node, 0 otherwise; read at most every "
					+ REFRESH.toSeconds() + " s")
			.tags("queue", queue)
			.strongReference(true)
			.register(target);
	}

	/** The result of one query, asked again once it is older than its period. */
	private static final class Cached<T> {

		private final Supplier<T> query;

		private final long periodNanos;

		private final LongSupplier nanoClock;

		private T value;

		private long refreshedAt;

		private boolean loaded;

		/** @param initial the value until the query first answers */
		Cached(Supplier<T> query, T initial, Duration period, LongSupplier nanoClock) {
			this.query = query;
			this.value = initial;
			this.periodNanos = period.toNanos();
			this.nanoClock = nanoClock;
		}

		synchronized T current() {
			long now = nanoClock.getAsLong();
			if (!loaded || now - refreshedAt >= periodNanos) {
				loaded = true;
				refreshedAt = now;
				try {
					value = query.get();
				}
				catch (VirtualMachineError ex) {
					throw ex;
				}
				catch (Throwable ex) {
					// Keep the last value; the next refresh tries again. A gauge must never fail a scrape.
					log.debug("Could not read the jobqueue gauges' values", ex);
				}
			}
			return value;
		}
	}
}
