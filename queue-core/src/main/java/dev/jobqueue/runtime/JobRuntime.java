package dev.jobqueue.runtime;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobTracing;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.WorkerQueues;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.PauseScope;
import dev.jobqueue.store.WakeupSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The worker side of one node: a poller and a pool of threads per queue ({@link QueueWorkers}), plus the
 * heartbeat (which also keeps the node's row in the node registry, {@link NodeRegistry}), the watchdog and the
 * scheduler of recurring jobs, and, while this node holds the maintenance lease, the reaper, the pruner and the
 * vacuumer ({@link Maintenance}), each on threads the runtime owns. {@link #stop()} is graceful and never hands over a job whose handler still
 * runs: see {@link #stop()}.
 */
public final class JobRuntime {

	private static final Logger log = LoggerFactory.getLogger(JobRuntime.class);

	/** The heartbeat's name in {@link #liveness()}; each poller's is {@code claim <queue>}. */
	public static final String HEARTBEAT = "heartbeat";

	private final JobStore store;

	private final JobStore ownStore;

	private final RuntimeSettings settings;

	private final String owner;

	private final InFlightJobs inFlight;

	private final CompletionBatcher completions;

	private final HandlerRegistry handlers;

	private final JobRunner runner;

	private final QueueWorkers queueWorkers;

	private final Heartbeater heartbeater;

	private final NodeRegistry node;

	/** A new one at each start, closed at each stop: a closed promoter stays closed. */
	private volatile KeyPromoter promoter;

	/** Like the key promoter, a new one at each start. */
	private volatile DependencyPromoter dependencyPromoter;

	private final Watchdog watchdog;

	private final List<WakeupSource> wakeupSources = new ArrayList<>();

	private final JsonMapper json;

	private final JobListener listener;

	private final KindLimits kindLimits;

	/** The scheduler's thread while running. */
	private Thread schedulerThread;

	private final RoleLiveness liveness = new RoleLiveness(Clock.systemUTC(), this::stopAfterFatalError);

	/** A new one at each start, stopped at each stop, read by {@link #maintaining()} on any thread. */
	private volatile Maintenance maintenance;

	/** The heartbeat and the watchdog: they outlive a stop while handlers that ignored it still run. */
	private ScheduledExecutorService leaseKeeping;

	private volatile boolean running;

	/**
	 * How many of each queue's jobs this node runs at once: the settings', then each resize's. Replaced whole by a
	 * resize, under the runtime's lock, so that readers need none.
	 */
	private volatile Map<String, Integer> concurrency;

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
		this(store, ownStore, handlers, json, settings, listener, JobTracing.NONE, transactions);
	}

	/** @param tracing opens each execution's span, in the trace stored with the job at its enqueue */
	public JobRuntime(JobStore store, JobStore ownStore, HandlerRegistry handlers, JsonMapper json,
			RuntimeSettings settings, JobListener listener, JobTracing tracing, TransactionOperations transactions) {
		this.store = store;
		this.ownStore = ownStore;
		this.settings = settings;
		this.owner = ownerName();
		this.handlers = handlers;
		this.json = json;
		this.listener = listener;
		this.inFlight = new InFlightJobs(Watchdog.fence(settings.lease(), settings.heartbeatInterval()),
				new JobSteps(store.steps(), json, new ResultJson(json, settings.maxResultLength())),
				new JobNotes(ownStore.steps(), json, settings.heartbeatInterval(), Clock.systemUTC()),
				new JobDependencies(store, json));
		OutcomeWriter outcomes = new OutcomeWriter(settings.lease());
		this.completions = new CompletionBatcher(ownStore.outcomes(), outcomes, liveness);
		// A retry due sooner than the next poll wakes its queue's poller, which then sleeps until it is due.
		Failures failures = new Failures(store, settings, outcomes, this::wake);
		this.runner = new JobRunner(store.outcomes(), handlers, json, settings, listener, tracing, transactions, inFlight,
				failures, completions, new StartConfirmations(ownStore.claims(), owner), this::ended,
				new RateWindows(handlers, () -> promoter));
		this.concurrency = Collections.unmodifiableMap(new TreeMap<>(settings.queues()));
		this.node = new NodeRegistry(ownStore.nodes(), owner, concurrency, handlers, settings.heartbeatInterval());
		this.heartbeater = new Heartbeater(ownStore.claims(), inFlight, owner, settings.lease(), node);
		this.watchdog = new Watchdog(inFlight);
		this.kindLimits = new KindLimits(ownStore.nodes(), settings.concurrencyKeyLimits());
		this.queueWorkers = new QueueWorkers(handlers, owner, ownStore, runner, liveness, settings);
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
			source.start(this::wake, queueWorkers::wantsWake);
		}
	}

	/**
	 * Starts every role; fails first, starting none, when the upcasters do not lead to their handlers, a
	 * schedule does not fit its handler, or the initial pauses cannot be written.
	 */
	public synchronized void start() {
		if (running) {
			return;
		}
		handlers.verifyUpcasters();
		List<ScheduledJob> schedules = ScheduledJobs.resolve(handlers, json, settings.retryPolicy());
		pauseInitially();
		node.register();
		kindLimits.declare(owner, handlers);
		running = true;
		completions.start();
		concurrency.forEach(queueWorkers::start);
		// A wakeup source that reads the database to learn whether a queue has jobs reads it only for the queues
		// whose pollers a wake would make claim now.
		wakeupSources.forEach(source -> source.start(this::wake, queueWorkers::wantsWake));
		startLeaseKeeping();
		// Its sweep is maintenance too; the promotions that follow this node's own writes are not.
		promoter = new KeyPromoter(ownStore.promotions(), this::wake, settings.pollInterval(), this::maintaining);
		dependencyPromoter = new DependencyPromoter(ownStore.dependencies(), ownStore.batches(), this::wake,
				promoter::promoteAfterCommit, settings.pollInterval(), this::maintaining);
		maintenance = new Maintenance(ownStore, owner, settings, listener, liveness, this::sweepSoon);
		maintenance.start();
		promoter.start();
		dependencyPromoter.start();
		startScheduler(schedules);
		log.info("jobqueue runtime {} started on queues {}", owner, concurrency);
	}

	/** Before the first claim: a queue meant to start paused must not start a job first. */
	private void pauseInitially() {
		for (String queue : settings.initiallyPaused()) {
			if (ownStore.pauses().pauseUnlessRecorded(PauseScope.queue, queue)) {
				log.info("Queue '{}' starts out paused, for every node, until resumed", queue);
			}
		}
	}

	/**
	 * The scheduler, a thread of its own, its passes watched for health: on every node, declaring schedules or not, as
	 * any node fires those added at runtime.
	 */
	private void startScheduler(List<ScheduledJob> schedules) {
		Scheduler scheduler = Scheduler.onDatabaseClock(ownStore, schedules, Clock.systemUTC(), listener, this::wake,
				new Scheduler.KeySlots(kind -> kindLimits.keySlot(kind, null, handlers.handlerFor(kind)),
						keys -> promoter.promoteAfterCommit(keys)), json);
		liveness.watch(Scheduler.ROLE, settings.pollInterval(), settings.lease());
		schedulerThread = new NamedThreads("jobqueue-scheduler")
			.newThread(() -> scheduler.loop(liveness, settings.pollInterval()));
		schedulerThread.start();
	}

	/**
	 * A thread each for the heartbeat and the watchdog, so that a heartbeat hung on a dropped connection
	 * cannot keep the watchdog from fencing. Those of a previous stop, kept for handlers that outlived it,
	 * are replaced: the new ones renew the same leases.
	 */
	private void startLeaseKeeping() {
		if (leaseKeeping != null) {
			leaseKeeping.shutdownNow();
		}
		leaseKeeping = Executors.newScheduledThreadPool(2, new NamedThreads("jobqueue-leases"));
		liveness.watch(HEARTBEAT, settings.heartbeatInterval(), settings.lease());
		liveness.every(leaseKeeping, HEARTBEAT, heartbeater::runOnce, settings.heartbeatInterval());
		liveness.every(leaseKeeping, "watchdog", watchdog::runOnce,
				Watchdog.period(settings.lease(), settings.heartbeatInterval()));
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

	/** A reap or a prune changed jobs without naming them: the keys' slots and the waiting jobs are swept. */
	private void sweepSoon() {
		promoter.sweepSoon();
		dependencyPromoter.sweepSoon();
	}

	/**
	 * A job finished: the next job of its concurrency key may run, and the jobs that wait for it are settled. Those it
	 * does not know of (enqueued with {@code after} once it was claimed) wait for the sweep.
	 */
	private void ended(ClaimedJob job) {
		KeyPromoter current = promoter;
		if (current != null && job.concurrencyKey() != null) {
			current.promoteAfterCommit(List.of(job.concurrencyKey()));
		}
		DependencyPromoter dependents = dependencyPromoter;
		if (dependents != null && job.hasDependents()) {
			dependents.finished(job.id());
		}
	}

	/** This node's queues and their sizes, resized while it runs: {@link JobQueue#queues()}. */
	public WorkerQueues queues() {
		return new WorkerQueues() {

			@Override
			public Map<String, Integer> concurrency() {
				return concurrency;
			}

			@Override
			public void resize(String queue, int size) {
				JobRuntime.this.resize(queue, size);
			}
		};
	}

	/** {@link WorkerQueues#resize}: kept for the next start too when the runtime is stopped. */
	private synchronized void resize(String queue, int size) {
		Integer before = queue == null ? null : concurrency.get(queue);
		if (before == null) {
			throw new IllegalArgumentException("this node does not work queue '" + queue + "'; it works "
					+ concurrency.keySet() + ". A node's queues are set at its start, by jobqueue.queues.<name>.concurrency");
		}
		if (size < 1) {
			throw new IllegalArgumentException("a queue's concurrency must be at least 1, was " + size + " for queue '"
					+ queue + "'; to stop its jobs from starting, pause the queue");
		}
		Map<String, Integer> resized = new TreeMap<>(concurrency);
		resized.put(queue, size);
		concurrency = Collections.unmodifiableMap(resized);
		if (running) {
			queueWorkers.resize(queue, size);
		}
		node.resized(concurrency);
		log.info("Queue '{}' resized from {} to {} threads on jobqueue runtime {}", queue, before, size, owner);
	}

	/** Wakes the poller of {@code queue}, if this node works it: a job may be waiting. */
	public void wake(String queue) {
		queueWorkers.wake(queue);
	}

	public boolean isRunning() {
		return running;
	}

	/**
	 * Whether this node is, as far as it can tell, the one that runs the reaper, the pruner and the vacuum
	 * for the whole cluster (it holds the maintenance lease); false once stopped.
	 */
	public boolean maintaining() {
		Maintenance current = maintenance;
		return running && current != null && current.held();
	}

	/**
	 * Stops claiming, waits up to the shutdown timeout for running jobs, then interrupts those still
	 * running and waits up to the shutdown grace for their handlers to exit. Each handler that exits is
	 * released by its own thread (see {@link JobRunner}); those that ignore the interrupt keep their
	 * leases, renewed, until they end or the process does, and the reaper takes them from there.
	 */
	public synchronized void stop() {
		if (!running) {
			return;
		}
		running = false;
		wakeupSources.forEach(WakeupSource::stop);
		queueWorkers.stopClaiming();
		stopScheduler();
		if (!queueWorkers.awaitJobs(settings.shutdownTimeout())) {
			interruptRunning();
			if (!queueWorkers.awaitJobs(settings.shutdownGrace())) {
				log.warn("{} job(s) ignored the interrupt and still run; their leases are kept until they end",
						inFlight.executions().size());
			}
		}
		// Written before the leases stop being renewed: a finished job must not be handed out again.
		completions.stop();
		promoter.close();
		dependencyPromoter.close();
		maintenance.stop();
		node.deregister();
		retireLeaseKeepingWhenIdle();
		queueWorkers.clear();
		log.info("jobqueue runtime {} stopped", owner);
	}

	private void stopScheduler() {
		if (schedulerThread != null) {
			schedulerThread.interrupt();
			QueueWorkers.join(schedulerThread);
			schedulerThread = null;
		}
	}

	private void interruptRunning() {
		int interrupted = 0;
		for (Execution execution : inFlight.executions()) {
			if (execution.stop()) {
				interrupted++;
			}
		}
		log.info("Interrupted {} job(s) still running after the shutdown timeout of {}; each is released once its "
				+ "handler exits", interrupted, settings.shutdownTimeout());
	}

	/** Keeps renewing the leases of handlers that outlived the stop, and stops once the last one ended. */
	private void retireLeaseKeepingWhenIdle() {
		ScheduledExecutorService executor = leaseKeeping;
		Runnable retire = () -> {
			if (inFlight.isEmpty()) {
				executor.shutdownNow();
			}
		};
		retire.run();
		if (!executor.isShutdown()) {
			liveness.every(executor, "lease keeping", retire, settings.heartbeatInterval());
		}
	}

	private static String ownerName() {
		return ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID().toString().substring(0, 8);
	}
}
