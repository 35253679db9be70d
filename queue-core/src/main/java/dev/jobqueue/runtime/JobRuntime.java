package dev.jobqueue.runtime;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.Lease;
import tools.jackson.databind.json.JsonMapper;

/**
 * The worker side of one node: a poller and a pool of threads per queue, plus the heartbeat, the
 * reaper, the pruner and the vacuumer, each on threads the runtime owns. {@link #stop()} is graceful:
 * claiming stops, running jobs get {@code shutdownTimeout} to finish, and the leases of those still
 * running are released so that another node starts them at once instead of after lease expiry.
 */
public final class JobRuntime {

	private static final Logger log = LoggerFactory.getLogger(JobRuntime.class);

	private final JobStore store;

	private final RuntimeSettings settings;

	private final String owner;

	private final InFlightJobs inFlight = new InFlightJobs();

	private final CompletionBatcher completions;

	private final HandlerRegistry handlers;

	private final JobRunner runner;

	private final Map<String, QueuePoller> pollers = new LinkedHashMap<>();

	private final List<ExecutorService> workerPools = new ArrayList<>();

	private final List<Thread> pollerThreads = new ArrayList<>();

	private final Heartbeater heartbeater;

	private final Reaper reaper;

	private final Pruner pruner;

	private final Vacuumer vacuumer;

	private final List<WakeupSource> wakeupSources = new ArrayList<>();

	private ScheduledExecutorService maintenance;

	private volatile boolean running;

	public JobRuntime(JobStore store, HandlerRegistry handlers, JsonMapper json, RuntimeSettings settings,
			JobListener listener, TransactionOperations transactions) {
		this.store = store;
		this.settings = settings;
		this.owner = ownerName();
		this.handlers = handlers;
		OutcomeWriter outcomes = new OutcomeWriter(settings.lease());
		this.completions = new CompletionBatcher(store, outcomes);
		this.runner = new JobRunner(store, handlers, json, settings, listener, transactions, inFlight, outcomes,
				completions);
		this.heartbeater = new Heartbeater(store, inFlight, owner, settings.lease());
		this.reaper = new Reaper(store, listener);
		this.pruner = new Pruner(store, settings.finishedRetention(), settings.deadRetention());
		this.vacuumer = new Vacuumer(store);
	}

	/** Who holds the leases this runtime takes: host, process and a random part unique to this runtime. */
	public String owner() {
		return owner;
	}

	/** Adds a source of wakeups from other processes; started and stopped with the runtime. */
	public synchronized void addWakeupSource(WakeupSource source) {
		wakeupSources.add(source);
		if (running) {
			source.start(this::wake);
		}
	}

	public synchronized void start() {
		if (running) {
			return;
		}
		running = true;
		completions.start();
		settings.queues().forEach(this::startQueue);
		wakeupSources.forEach(source -> source.start(this::wake));
		// One thread per task: a long VACUUM or prune must not hold up the heartbeat.
		maintenance = Executors.newScheduledThreadPool(4, new NamedThreads("jobqueue-maintenance"));
		schedule(heartbeater::runOnce, "heartbeat", settings.heartbeatInterval());
		schedule(reaper::runOnce, "reaper", settings.reaperInterval());
		schedule(pruner::runOnce, "pruner", settings.pruneInterval());
		if (!settings.vacuumInterval().isZero()) {
			schedule(vacuumer::runOnce, "vacuum", settings.vacuumInterval());
		}
		log.info("jobqueue runtime {} started on queues {}", owner, settings.queues());
	}

	private void startQueue(String queue, int concurrency) {
		ExecutorService workers = Executors.newFixedThreadPool(concurrency, new NamedThreads("jobqueue-" + queue));
		QueuePoller poller = new QueuePoller(queue, concurrency, handlers, owner, settings.lease(), store, runner,
				workers);
		Thread thread = new NamedThreads("jobqueue-poller-" + queue).newThread(() -> poller.loop(settings.pollInterval()));
		workerPools.add(workers);
		pollers.put(queue, poller);
		pollerThreads.add(thread);
		thread.start();
	}

	private void schedule(Runnable task, String name, Duration interval) {
		maintenance.scheduleWithFixedDelay(() -> {
			try {
				task.run();
			}
			catch (RuntimeException ex) {
				log.warn("jobqueue {} failed; it runs again in {}", name, interval, ex);
			}
		}, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
	}

	/** Wakes the poller of {@code queue}, if this node works it: a job may be waiting. */
	public void wake(String queue) {
		QueuePoller poller = pollers.get(queue);
		if (poller != null) {
			poller.wake();
		}
	}

	public boolean isRunning() {
		return running;
	}

	/** Stops claiming, waits up to the shutdown timeout for running jobs, releases the rest. */
	public synchronized void stop() {
		if (!running) {
			return;
		}
		running = false;
		wakeupSources.forEach(WakeupSource::stop);
		pollerThreads.forEach(Thread::interrupt);
		pollerThreads.forEach(JobRuntime::join);
		workerPools.forEach(ExecutorService::shutdown);
		long deadline = System.nanoTime() + settings.shutdownTimeout().toNanos();
		for (ExecutorService pool : workerPools) {
			awaitUntil(pool, deadline);
		}
		// Written before anything is released: a finished job must not be handed out again.
		completions.stop();
		releaseUnfinished();
		workerPools.forEach(ExecutorService::shutdownNow);
		maintenance.shutdownNow();
		pollers.clear();
		workerPools.clear();
		pollerThreads.clear();
		log.info("jobqueue runtime {} stopped", owner);
	}

	private void releaseUnfinished() {
		int released = 0;
		for (Lease lease : inFlight.leases()) {
			Execution execution = inFlight.get(lease);
			if (execution != null && store.release(lease)) {
				released++;
			}
			if (execution != null) {
				execution.leaseLost();
			}
		}
		if (released > 0) {
			log.info("Released {} job(s) still running after the shutdown timeout of {}", released,
					settings.shutdownTimeout());
		}
	}

	private static void awaitUntil(ExecutorService pool, long deadlineNanos) {
		try {
			pool.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void join(Thread thread) {
		try {
			thread.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static String ownerName() {
		return ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID().toString().substring(0, 8);
	}
}
