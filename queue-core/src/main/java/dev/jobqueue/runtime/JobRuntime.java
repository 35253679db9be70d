package dev.jobqueue.runtime;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
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

	/** The heartbeat's name in {@link #liveness()}; each poller's is {@code claim <queue>}. */
	public static final String HEARTBEAT = "heartbeat";

	private final JobStore store;

	private final JobStore ownStore;

	private final RuntimeSettings settings;

	private final String owner;

	private final InFlightJobs inFlight = new InFlightJobs();

	private final CompletionBatcher completions;

	private final HandlerRegistry handlers;

	private final JobRunner runner;

	/** Written by start and stop, read by {@link #wake} on the threads of listeners and enqueues. */
	private final Map<String, QueuePoller> pollers = new ConcurrentHashMap<>();

	private final List<ExecutorService> workerPools = new ArrayList<>();

	private final List<Thread> pollerThreads = new ArrayList<>();

	private final Heartbeater heartbeater;

	private final Reaper reaper;

	private final Pruner pruner;

	private final Vacuumer vacuumer;

	private final List<WakeupSource> wakeupSources = new ArrayList<>();

	private final RoleLiveness liveness = new RoleLiveness(Clock.systemUTC(), this::stopAfterFatalError);

	private ScheduledExecutorService maintenance;

	private volatile boolean running;

	public JobRuntime(JobStore store, HandlerRegistry handlers, JsonMapper json, RuntimeSettings settings,
			JobListener listener, TransactionOperations transactions) {
		this(store, store, handlers, json, settings, listener, transactions);
	}

	/**
	 * @param store where handlers' own outcomes are written: the store whose connections join the handlers'
	 * transactions
	 * @param ownStore where the runtime's own statements go (claims, heartbeats, batched completions, reaper,
	 * pruner, vacuum): a store on connections handlers cannot take, so that they never wait behind handlers
	 */
	public JobRuntime(JobStore store, JobStore ownStore, HandlerRegistry handlers, JsonMapper json,
			RuntimeSettings settings, JobListener listener, TransactionOperations transactions) {
		this.store = store;
		this.ownStore = ownStore;
		this.settings = settings;
		this.owner = ownerName();
		this.handlers = handlers;
		OutcomeWriter outcomes = new OutcomeWriter(settings.lease());
		this.completions = new CompletionBatcher(ownStore, outcomes, liveness);
		this.runner = new JobRunner(store, handlers, json, settings, listener, transactions, inFlight, outcomes,
				completions);
		this.heartbeater = new Heartbeater(ownStore, inFlight, owner, settings.lease());
		this.reaper = new Reaper(ownStore, listener);
		this.pruner = new Pruner(ownStore, settings.finishedRetention(), settings.deadRetention());
		this.vacuumer = new Vacuumer(ownStore);
	}

	/** Who holds the leases this runtime takes: host, process and a random part unique to this runtime. */
	public String owner() {
		return owner;
	}

	/** When each role last succeeded, and which are overdue: the runtime's health, read by any thread. */
	public RoleLiveness liveness() {
		return liveness;
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
		liveness.watch(HEARTBEAT, settings.heartbeatInterval(), settings.lease());
		schedule(heartbeater::runOnce, HEARTBEAT, settings.heartbeatInterval());
		schedule(reaper::runOnce, "reaper", settings.reaperInterval());
		schedule(pruner::runOnce, "pruner", settings.pruneInterval());
		if (!settings.vacuumInterval().isZero()) {
			schedule(vacuumer::runOnce, "vacuum", settings.vacuumInterval());
		}
		log.info("jobqueue runtime {} started on queues {}", owner, settings.queues());
	}

	private void startQueue(String queue, int concurrency) {
		ExecutorService workers = Executors.newFixedThreadPool(concurrency, new NamedThreads("jobqueue-" + queue));
		QueuePoller poller = new QueuePoller(queue, concurrency, handlers, owner, settings.lease(), ownStore, runner,
				workers, liveness);
		liveness.watch(poller.role(), settings.pollInterval(), settings.lease());
		Thread thread = new NamedThreads("jobqueue-poller-" + queue).newThread(() -> poller.loop(settings.pollInterval()));
		workerPools.add(workers);
		pollers.put(queue, poller);
		pollerThreads.add(thread);
		thread.start();
	}

	/**
	 * A task that throws is never run again by its executor, so every pass is guarded: whatever it throws
	 * is logged and the task runs again at its next interval.
	 */
	private void schedule(Runnable task, String name, Duration interval) {
		maintenance.scheduleWithFixedDelay(() -> liveness.pass(name, task, interval), interval.toMillis(),
				interval.toMillis(), TimeUnit.MILLISECONDS);
	}

	/**
	 * Stops on a thread of its own: the role that met the error may be one that {@link #stop()} waits for.
	 * If even that thread cannot start, the runtime at least says it is not running.
	 */
	private void stopAfterFatalError() {
		try {
			new NamedThreads("jobqueue-fatal-stop").newThread(this::stop).start();
		}
		catch (Throwable ex) {
			running = false;
		}
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
