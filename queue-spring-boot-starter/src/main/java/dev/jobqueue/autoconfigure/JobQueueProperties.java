package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import dev.jobqueue.RetryPolicy;
import dev.jobqueue.RuntimeSettings;

/**
 * Configuration of the queue, under {@code jobqueue.*}. The defaults written here are those of
 * {@link RuntimeSettings#defaults()} and {@link RetryPolicy#DEFAULT}; a test holds them equal. Values are
 * checked when bound: an invalid one fails the startup, naming the property.
 */
@ConfigurationProperties("jobqueue")
public class JobQueueProperties implements Validator {

	/** Whether to set up the queue at all. */
	private boolean enabled = true;

	/**
	 * The database's dialect, postgresql, sqlite or mysql (MySQL and MariaDB; mariadb names it too). Detected
	 * from the DataSource's metadata when not set.
	 */
	private String dialect;

	/**
	 * When to create and upgrade the queue's tables, with Flyway and a history table of their own
	 * (jobqueue_schema_history). 'embedded' counts SQLite as embedded; with 'never' you apply the migrations, and
	 * each node still checks at startup that the tables are at the version it needs.
	 */
	private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.ALWAYS;

	/** Whether and how this node runs jobs. */
	private final Worker worker = new Worker();

	/**
	 * The queues this node works, by name. The 'default' queue is present unless its concurrency is set to 0;
	 * jobs go there when neither their handler nor the enqueue names a queue.
	 */
	private final Map<String, Queue> queues = new LinkedHashMap<>(Map.of(RuntimeSettings.DEFAULT_QUEUE, new Queue()));

	/**
	 * Job kinds that other applications handle and this one only enqueues. Any other kind that no
	 * handler here serves is refused at enqueue, as a likely typo (an application with no handlers at all enqueues
	 * any kind). This node never claims an external kind: its jobs wait for a node that serves it. A kind that a
	 * handler here serves fails the startup.
	 */
	private List<String> externalKinds = new ArrayList<>();

	/**
	 * Recurring jobs, by name: each fire time enqueues one job of the kind, with the payload, in the whole
	 * cluster. The name is shared by every node that declares it.
	 */
	private final Map<String, Schedule> schedules = new LinkedHashMap<>();

	/**
	 * Limits of concurrency keys by prefix, such as {@code tenant-: 4}: a job whose key starts with a prefix
	 * here may have as many jobs of its key ready or running at once as the longest such prefix says, whatever
	 * its handler declares. Weights for sharing a queue between tenants: a key with a larger limit gets a
	 * larger share. In YAML write a prefix in brackets, {@code "[tenant-]"}, to keep its dash. A prefix starting
	 * with {@code kind:}, which only kinds' own keys do, fails the startup.
	 */
	private final Map<String, Integer> concurrencyKeyLimits = new LinkedHashMap<>();

	/**
	 * Whether nodes wake each other's workers: on PostgreSQL with LISTEN/NOTIFY (an enqueue of a due job
	 * notifies, and each worker node keeps one connection listening), on MySQL/MariaDB with a change watcher
	 * (each worker node keeps one connection reading the newest job id every 50 ms). Turn off behind PgBouncer
	 * in transaction pooling mode, where LISTEN cannot work; workers then find new jobs by polling.
	 */
	private boolean notify = true;

	/**
	 * The longest an idle poller sleeps when nothing wakes it. It sleeps less when a job it could take (a delayed
	 * job, a retry) is due sooner; a job another node enqueues with a shorter delay may start up to this interval
	 * minus that delay late.
	 */
	private Duration pollInterval = Duration.ofSeconds(1);

	/**
	 * How long a claimed job stays leased to its worker without a heartbeat; when it expires the job goes
	 * to another worker. On SQLite keep it longer than the heartbeat interval plus 5 s (the wait for SQLite's write
	 * lock); a shorter lease is warned of at startup.
	 */
	private Duration leaseDuration = Duration.ofSeconds(30);

	/**
	 * How often the leases of running jobs are extended, and the node marked seen in the node registry (stale after
	 * three intervals). Must be shorter than the lease duration.
	 */
	private Duration heartbeatInterval = Duration.ofSeconds(10);

	/**
	 * How often jobs whose lease expired (their worker died) are handed back, by the one node that holds the
	 * maintenance lease.
	 */
	private Duration reaperInterval = Duration.ofSeconds(5);

	/** How often finished jobs past their retention, and stale nodes of the node registry, are deleted. */
	private Duration pruneInterval = Duration.ofMinutes(1);

	/**
	 * How often the job table's dead rows are counted, and the table vacuumed when there are many
	 * (PostgreSQL; on SQLite there is nothing to vacuum). Every claim steps over the rows claimed since the
	 * last VACUUM, so this bounds how much a busy queue slows itself down. Needs PostgreSQL 13 or later and the
	 * database user to own the table (otherwise one warning is logged). 0 turns it off, leaving the table to
	 * autovacuum.
	 */
	private Duration vacuumInterval = Duration.ofSeconds(2);

	/** How long finished jobs are kept. */
	private final Retention retention = new Retention();

	/**
	 * How long stopping waits for running jobs to finish before it interrupts their handlers. With
	 * shutdown-grace it stays well inside Kubernetes' default termination grace period of 30 s.
	 */
	private Duration shutdownTimeout = Duration.ofSeconds(15);

	/**
	 * How long stopping waits, after interrupting them, for handlers to exit. The job of each handler that
	 * exits is released for another node (its attempt given back once per job); a handler that ignores
	 * the interrupt keeps its lease, renewed, until it ends or the process does.
	 */
	private Duration shutdownGrace = Duration.ofSeconds(5);

	/**
	 * How long a handler without a timeout of its own may run before it is interrupted and its attempt
	 * fails. 0 means no limit: the queue cannot know how long a job should take.
	 */
	private Duration defaultTimeout = Duration.ZERO;

	/** The retry policy of handlers that declare none of their own. */
	private final Retry retry = new Retry();

	/**
	 * The operator's web console: server-rendered pages of queues, jobs, dead jobs and nodes, served by the
	 * application itself in a servlet web application.
	 */
	public static class Console {

		/**
		 * Whether to serve the console. Off unless set: its pages show payloads and errors, so enable it
		 * where the path is protected (Spring Security) or the network is trusted.
		 */
		private boolean enabled;

		/** The path the console is served under; starts with '/', does not end with one. */
		private String path = "/jobqueue";

		/**
		 * Whether the console may retry and cancel jobs. Read-only unless set: no buttons are shown, and a
		 * POST is refused with 403.
		 */
		private boolean writesEnabled;

		/**
		 * Whether the console may take writes in an application without a Spring Security filter chain, where
		 * anyone who reaches its path may retry and cancel jobs. Without it, writes-enabled fails the startup there.
		 */
		private boolean allowUnsecuredWrites;

		/**
		 * PostgreSQL: the overview warns, with what to do, when a transaction has held back the xmin horizon longer
		 * than this (no dead job row newer than it can be vacuumed); 0: never.
		 */
		private Duration xminHeldWarning = Duration.ofMinutes(5);

		/**
		 * PostgreSQL: the overview warns, with what to do, when the job table holds more dead row versions than this;
		 * 0: never.
		 */
		private long deadRowsWarning = 1_000_000;

		public boolean isEnabled() {
			return enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getPath() {
			return path;
		}

		public void setPath(String path) {
			this.path = path;
		}

		public boolean isWritesEnabled() {
			return writesEnabled;
		}

		public void setWritesEnabled(boolean writesEnabled) {
			this.writesEnabled = writesEnabled;
		}

		public boolean isAllowUnsecuredWrites() {
			return allowUnsecuredWrites;
		}

		public void setAllowUnsecuredWrites(boolean allowUnsecuredWrites) {
			this.allowUnsecuredWrites = allowUnsecuredWrites;
		}

		public Duration getXminHeldWarning() {
			return xminHeldWarning;
		}

		public void setXminHeldWarning(Duration xminHeldWarning) {
			this.xminHeldWarning = xminHeldWarning;
		}

		public long getDeadRowsWarning() {
			return deadRowsWarning;
		}

		public void setDeadRowsWarning(long deadRowsWarning) {
			this.deadRowsWarning = deadRowsWarning;
		}
	}

	/** How payloads are bound to their handlers' types. */
	private final Payload payload = new Payload();

	/** The operator's web console. */
	private final Console console = new Console();

	/** The largest payload accepted by an enqueue, in characters of JSON. */
	private int maxPayloadLength = 1048576;

	/**
	 * The longest error text (message and stack trace) stored with a failed job; each entry of its error history
	 * keeps the first 2,000 characters.
	 */
	private int maxErrorLength = 16384;

	/**
	 * The longest result a handler may return, in characters of JSON. A longer one (or one holding
	 * U+0000, which PostgreSQL cannot store) fails its job, dead, saying so.
	 */
	private int maxResultLength = 1048576;

	public boolean isEnabled() {
		return enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getDialect() {
		return dialect;
	}

	public void setDialect(String dialect) {
		this.dialect = dialect;
	}

	public DatabaseInitializationMode getInitializeSchema() {
		return initializeSchema;
	}

	public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
		this.initializeSchema = initializeSchema;
	}

	public Worker getWorker() {
		return worker;
	}

	public Map<String, Queue> getQueues() {
		return queues;
	}

	public Map<String, Integer> getConcurrencyKeyLimits() {
		return concurrencyKeyLimits;
	}

	public Map<String, Schedule> getSchedules() {
		return schedules;
	}

	public List<String> getExternalKinds() {
		return externalKinds;
	}

	public void setExternalKinds(List<String> externalKinds) {
		this.externalKinds = externalKinds;
	}

	public boolean isNotify() {
		return notify;
	}

	public void setNotify(boolean notify) {
		this.notify = notify;
	}

	public Duration getPollInterval() {
		return pollInterval;
	}

	public void setPollInterval(Duration pollInterval) {
		this.pollInterval = pollInterval;
	}

	public Duration getLeaseDuration() {
		return leaseDuration;
	}

	public void setLeaseDuration(Duration leaseDuration) {
		this.leaseDuration = leaseDuration;
	}

	public Duration getHeartbeatInterval() {
		return heartbeatInterval;
	}

	public void setHeartbeatInterval(Duration heartbeatInterval) {
		this.heartbeatInterval = heartbeatInterval;
	}

	public Duration getReaperInterval() {
		return reaperInterval;
	}

	public void setReaperInterval(Duration reaperInterval) {
		this.reaperInterval = reaperInterval;
	}

	public Duration getPruneInterval() {
		return pruneInterval;
	}

	public void setPruneInterval(Duration pruneInterval) {
		this.pruneInterval = pruneInterval;
	}

	public Duration getVacuumInterval() {
		return vacuumInterval;
	}

	public void setVacuumInterval(Duration vacuumInterval) {
		this.vacuumInterval = vacuumInterval;
	}

	public Retention getRetention() {
		return retention;
	}

	public Duration getShutdownTimeout() {
		return shutdownTimeout;
	}

	public void setShutdownTimeout(Duration shutdownTimeout) {
		this.shutdownTimeout = shutdownTimeout;
	}

	public Duration getShutdownGrace() {
		return shutdownGrace;
	}

	public void setShutdownGrace(Duration shutdownGrace) {
		this.shutdownGrace = shutdownGrace;
	}

	public Duration getDefaultTimeout() {
		return defaultTimeout;
	}

	public void setDefaultTimeout(Duration defaultTimeout) {
		this.defaultTimeout = defaultTimeout;
	}

	public Retry getRetry() {
		return retry;
	}

	public Console getConsole() {
		return console;
	}

	public Payload getPayload() {
		return payload;
	}

	public int getMaxPayloadLength() {
		return maxPayloadLength;
	}

	public void setMaxPayloadLength(int maxPayloadLength) {
		this.maxPayloadLength = maxPayloadLength;
	}

	public int getMaxErrorLength() {
		return maxErrorLength;
	}

	public void setMaxErrorLength(int maxErrorLength) {
		this.maxErrorLength = maxErrorLength;
	}

	public int getMaxResultLength() {
		return maxResultLength;
	}

	public void setMaxResultLength(int maxResultLength) {
		this.maxResultLength = maxResultLength;
	}

	@Override
	public boolean supports(Class<?> type) {
		return JobQueueProperties.class.isAssignableFrom(type);
	}

	@Override
	public void validate(Object target, Errors errors) {
		JobQueuePropertiesValidator.validate((JobQueueProperties) target, errors);
	}

	/** The runtime's settings, from these properties, ready for customizers. */
	RuntimeSettings.Builder runtimeSettings() {
		RuntimeSettings.Builder settings = RuntimeSettings.builder().queues(Map.of());
		queues.forEach((name, queue) -> {
			settings.queue(name, queue.getConcurrency()).prefetch(name, queue.getPrefetch());
			if (queue.isInitiallyPaused()) {
				settings.initiallyPaused(name);
			}
		});
		concurrencyKeyLimits.forEach(settings::concurrencyKeyLimit);
		return settings.pollInterval(pollInterval)
			.lease(leaseDuration)
			.heartbeatInterval(heartbeatInterval)
			.reaperInterval(reaperInterval)
			.pruneInterval(pruneInterval)
			.vacuumInterval(vacuumInterval)
			.finishedRetention(retention.getSucceeded())
			.deadRetention(retention.getDead())
			.shutdownTimeout(shutdownTimeout)
			.shutdownGrace(shutdownGrace)
			.defaultTimeout(defaultTimeout)
			.retryPolicy(retry.toRetryPolicy())
			.maxErrorLength(maxErrorLength)
			.maxResultLength(maxResultLength)
			.maxPayloadLength(maxPayloadLength)
			.failOnUnknownPayloadProperties(payload.isFailOnUnknownProperties());
	}

	/** One recurring job: a cron expression or an interval, and the job it enqueues. */
	public static class Schedule {

		/** The kind of the jobs it enqueues; a handler here must serve it, or it must be an external kind. */
		private String kind;

		/**
		 * A cron expression, six fields with seconds first (or a macro such as @daily), as Spring's
		 * CronExpression reads them. Exclusive with every.
		 */
		private String cron;

		/** The time zone of the cron expression, such as Europe/Paris; UTC when not set. */
		private String zone;

		/**
		 * A fixed interval with its unit, at least 1s, counted from the epoch (15m fires at :00, :15, :30 and :45).
		 * A number without a unit is refused. Exclusive with cron.
		 */
		private String every;

		/** The payload of its jobs, as JSON; it must bind to the handler's payload type. JSON null when not set. */
		private String payload;

		/** The queue of its jobs; the handler's queue when not set. */
		private String queue;

		/** The priority of its jobs, 0 (first) to 9 (last); 5 when not set. */
		private Integer priority;

		/**
		 * Whether it fires. A schedule disabled on the node that started last stops on every node.
		 */
		private boolean enabled = true;

		/**
		 * What to do with fire times missed (found later than the misfire threshold) while no node was running:
		 * skip runs none of them, once runs one job for the latest, all runs one per missed time, oldest first, at
		 * most 100.
		 */
		private dev.jobqueue.Schedule.Misfire misfire = dev.jobqueue.Schedule.Misfire.SKIP;

		/** How late a fire time may be found and still be enqueued as on time rather than as a misfire. */
		private Duration misfireThreshold = Duration.ofMinutes(1);

		/**
		 * Whether a cron schedule fires once or twice at a local time that happens twice on the day clocks go back
		 * (02:30 in Europe/Paris on the last Sunday of October): once or twice.
		 */
		private dev.jobqueue.Schedule.FallBack fallBack = dev.jobqueue.Schedule.FallBack.ONCE;

		public String getKind() {
			return kind;
		}

		public void setKind(String kind) {
			this.kind = kind;
		}

		public String getCron() {
			return cron;
		}

		public void setCron(String cron) {
			this.cron = cron;
		}

		public String getZone() {
			return zone;
		}

		public void setZone(String zone) {
			this.zone = zone;
		}

		public String getEvery() {
			return every;
		}

		public void setEvery(String every) {
			this.every = every;
		}

		public String getPayload() {
			return payload;
		}

		public void setPayload(String payload) {
			this.payload = payload;
		}

		public String getQueue() {
			return queue;
		}

		public void setQueue(String queue) {
			this.queue = queue;
		}

		public Integer getPriority() {
			return priority;
		}

		public void setPriority(Integer priority) {
			this.priority = priority;
		}

		public boolean isEnabled() {
			return enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public dev.jobqueue.Schedule.FallBack getFallBack() {
			return fallBack;
		}

		public void setFallBack(dev.jobqueue.Schedule.FallBack fallBack) {
			this.fallBack = fallBack;
		}

		public dev.jobqueue.Schedule.Misfire getMisfire() {
			return misfire;
		}

		public void setMisfire(dev.jobqueue.Schedule.Misfire misfire) {
			this.misfire = misfire;
		}

		public Duration getMisfireThreshold() {
			return misfireThreshold;
		}

		public void setMisfireThreshold(Duration misfireThreshold) {
			this.misfireThreshold = misfireThreshold;
		}
	}

	/** Whether this node runs jobs. */
	public static class Worker {

		/** Whether this node runs jobs; false makes it an enqueue-only node. */
		private boolean enabled = true;

		/**
		 * Whether what a handler's thread logs through Logback is also kept with its job, as JobContext.log lines:
		 * 200 per attempt, each cut at 2,000 characters. Off by default, as logs may hold what the job table should
		 * not; the application's log levels decide what is copied.
		 */
		private boolean captureLogs;

		public boolean isEnabled() {
			return enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isCaptureLogs() {
			return captureLogs;
		}

		public void setCaptureLogs(boolean captureLogs) {
			this.captureLogs = captureLogs;
		}
	}

	/** One queue this node works. */
	public static class Queue {

		/**
		 * How many jobs of this queue run at once on this node (threads). 0: this node does not work the
		 * queue, 'default' included; its jobs wait for a node that does. On PostgreSQL and MySQL/MariaDB each queue
		 * also takes one connection of the runtime's own pool, for its poller.
		 */
		private int concurrency = 8;

		/**
		 * How many claimed jobs of this queue may wait on this node for a free thread, beyond those running. 0: a
		 * claim takes as many jobs as there are free threads. For short jobs at high rates; a waiting job keeps
		 * its lease, so leave it at 0 for jobs that take seconds. Must not be negative.
		 */
		private int prefetch;

		/**
		 * Whether the queue starts out paused, for every node: a worker node pauses it as it starts, unless
		 * the queue was ever paused or resumed before, so that a restart never undoes a resume.
		 */
		private boolean initiallyPaused;

		public int getConcurrency() {
			return concurrency;
		}

		public void setConcurrency(int concurrency) {
			this.concurrency = concurrency;
		}

		public int getPrefetch() {
			return prefetch;
		}

		public void setPrefetch(int prefetch) {
			this.prefetch = prefetch;
		}

		public boolean isInitiallyPaused() {
			return initiallyPaused;
		}

		public void setInitiallyPaused(boolean initiallyPaused) {
			this.initiallyPaused = initiallyPaused;
		}
	}

	/** How payloads are bound to their handlers' types. */
	public static class Payload {

		/**
		 * Whether a payload property that the handler's type does not have fails the binding, at enqueue (for
		 * a Map or other JSON value) and in the worker, so that a renamed field is an error rather than a
		 * silent null. Applies to payloads only, whatever spring.jackson says for the application's other
		 * JSON. An upcaster must then remove the old fields it renames.
		 */
		private boolean failOnUnknownProperties = true;

		public boolean isFailOnUnknownProperties() {
			return failOnUnknownProperties;
		}

		public void setFailOnUnknownProperties(boolean failOnUnknownProperties) {
			this.failOnUnknownProperties = failOnUnknownProperties;
		}
	}

	/** How long finished jobs are kept before the pruner deletes them. */
	public static class Retention {

		/** How long succeeded (and cancelled) jobs are kept. */
		private Duration succeeded = Duration.ofDays(1);

		/**
		 * How long dead jobs are kept, for an operator to look at or retry. One that holds its concurrency key's slot
		 * (deadJobBlocksKey) is kept until it is retried or cancelled.
		 */
		private Duration dead = Duration.ofDays(14);

		public Duration getSucceeded() {
			return succeeded;
		}

		public void setSucceeded(Duration succeeded) {
			this.succeeded = succeeded;
		}

		public Duration getDead() {
			return dead;
		}

		public void setDead(Duration dead) {
			this.dead = dead;
		}
	}

	/** The retry policy of handlers that declare none of their own. */
	public static class Retry {

		/** Executions before a failing job is dead. */
		private int maxAttempts = 20;

		/** Wait after the first failure. */
		private Duration initialBackoff = Duration.ofSeconds(1);

		/** Longest wait between two attempts. */
		private Duration maxBackoff = Duration.ofHours(1);

		/** Growth of the wait per failed attempt. */
		private double multiplier = 2.0;

		/**
		 * Fraction of each wait taken off at random, in [0, 1), so that jobs failing together do not retry together.
		 */
		private double jitter = 0.2;

		public int getMaxAttempts() {
			return maxAttempts;
		}

		public void setMaxAttempts(int maxAttempts) {
			this.maxAttempts = maxAttempts;
		}

		public Duration getInitialBackoff() {
			return initialBackoff;
		}

		public void setInitialBackoff(Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public Duration getMaxBackoff() {
			return maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

		public double getMultiplier() {
			return multiplier;
		}

		public void setMultiplier(double multiplier) {
			this.multiplier = multiplier;
		}

		public double getJitter() {
			return jitter;
		}

		public void setJitter(double jitter) {
			this.jitter = jitter;
		}

		RetryPolicy toRetryPolicy() {
			return new RetryPolicy(maxAttempts, initialBackoff, maxBackoff, multiplier, jitter);
		}
	}
}
