package dev.jobqueue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * How the workers of one node run: which queues with how many threads, the lease and its heartbeat, the
 * intervals of the maintenance roles, retention, shutdown and limits. Built with {@link #builder()},
 * whose defaults are those of the Spring Boot starter's {@code jobqueue.*} properties; the starter hands
 * the builder, filled from those properties, to every {@code JobQueueCustomizer} bean.
 *
 * <p>The defaults: one queue, {@code default}, with 8 threads; a 30 s lease heartbeated every 10 s. A stop
 * waits 15 s for running jobs and 5 s more after interrupting them: 20 s, inside Kubernetes' default
 * termination grace period of 30 s with room for the web server's own graceful stop and the context's
 * close. No execution timeout: the queue cannot know how long a job should take. The job table is looked
 * at for vacuuming every 2 s: a busy queue leaves dead entries at the front of the claim's index at its own
 * rate, and every claim steps over those that are there, so the interval bounds how many seconds of
 * claimed jobs a claim finds in its way (and the store's pass over the indexes, every 4,000 dead rows, how many
 * jobs on a table of many finished ones; decision record 014 has the measurements). Where nothing needs
 * vacuuming the look costs a read of the table's statistics.
 */
public final class RuntimeSettings {

	/** The queue of handlers and jobs that name none. */
	public static final String DEFAULT_QUEUE = "default";

	/** The default largest payload, in characters of JSON. */
	public static final int DEFAULT_MAX_PAYLOAD_LENGTH = 1024 * 1024;

	private final Map<String, Integer> queues;

	private final Map<String, Integer> prefetches;

	private final Set<String> initiallyPaused;

	private final Duration pollInterval;

	private final Duration lease;

	private final Duration heartbeatInterval;

	private final Duration reaperInterval;

	private final Duration pruneInterval;

	private final Duration vacuumInterval;

	private final Duration finishedRetention;

	private final Duration deadRetention;

	private final Duration shutdownTimeout;

	private final Duration shutdownGrace;

	private final Duration defaultTimeout;

	private final RetryPolicy retryPolicy;

	private final int maxErrorLength;

	private final int maxResultLength;

	private final int maxPayloadLength;

	private final boolean failOnUnknownPayloadProperties;

	private final Map<String, Integer> concurrencyKeyLimits;

	private RuntimeSettings(Builder builder) {
		this.queues = Map.copyOf(builder.queues);
		this.prefetches = Map.copyOf(builder.prefetches);
		this.initiallyPaused = Set.copyOf(builder.initiallyPaused);
		this.pollInterval = builder.pollInterval;
		this.lease = builder.lease;
		this.heartbeatInterval = builder.heartbeatInterval;
		this.reaperInterval = builder.reaperInterval;
		this.pruneInterval = builder.pruneInterval;
		this.vacuumInterval = builder.vacuumInterval;
		this.finishedRetention = builder.finishedRetention;
		this.deadRetention = builder.deadRetention;
		this.shutdownTimeout = builder.shutdownTimeout;
		this.shutdownGrace = builder.shutdownGrace;
		this.defaultTimeout = builder.defaultTimeout;
		this.retryPolicy = builder.retryPolicy;
		this.maxErrorLength = builder.maxErrorLength;
		this.maxResultLength = builder.maxResultLength;
		this.maxPayloadLength = builder.maxPayloadLength;
		this.failOnUnknownPayloadProperties = builder.failOnUnknownPayloadProperties;
		this.concurrencyKeyLimits = Map.copyOf(builder.concurrencyKeyLimits);
	}

	/** The defaults, described above. */
	public static RuntimeSettings defaults() {
		return builder().build();
	}

	/** A builder holding the defaults. */
	public static Builder builder() {
		return new Builder();
	}

	/** A builder holding these settings, to change some of them. */
	public Builder toBuilder() {
		return new Builder(this);
	}

	/** The queues this node works, with each one's concurrency (threads); never one of concurrency 0. */
	public Map<String, Integer> queues() {
		return queues;
	}

	/**
	 * How many claimed jobs of {@code queue} may wait on this node for a free thread, beyond those running; 0
	 * unless set (see {@link Builder#prefetch}).
	 */
	public int prefetch(String queue) {
		return prefetches.getOrDefault(queue, 0);
	}

	/**
	 * The queues that start out paused in the whole cluster: a worker node pauses each when it starts, before
	 * it claims, unless the queue was ever paused or resumed before (see {@link Builder#initiallyPaused}).
	 */
	public Set<String> initiallyPaused() {
		return initiallyPaused;
	}

	/** How long a poller sleeps when nothing wakes it. */
	public Duration pollInterval() {
		return pollInterval;
	}

	/** How long a claim is valid without a heartbeat. */
	public Duration lease() {
		return lease;
	}

	/**
	 * How often the leases of running jobs are extended, and the node marked seen in the node registry (stale after
	 * three intervals); shorter than the lease.
	 */
	public Duration heartbeatInterval() {
		return heartbeatInterval;
	}

	/** How often expired leases are looked for. */
	public Duration reaperInterval() {
		return reaperInterval;
	}

	/** How often finished jobs past their retention, and stale nodes of the node registry, are deleted. */
	public Duration pruneInterval() {
		return pruneInterval;
	}

	/** How often the job table's dead rows are counted, and the table vacuumed when many; zero: never. */
	public Duration vacuumInterval() {
		return vacuumInterval;
	}

	/** How long succeeded and cancelled jobs are kept. */
	public Duration finishedRetention() {
		return finishedRetention;
	}

	/** How long dead jobs are kept; one that holds its concurrency key's slot is kept until retried or cancelled. */
	public Duration deadRetention() {
		return deadRetention;
	}

	/** How long a stop waits for running jobs before interrupting them. */
	public Duration shutdownTimeout() {
		return shutdownTimeout;
	}

	/**
	 * How long a stop waits, after interrupting them, for handlers to exit; the leases of those that do not
	 * are kept, heartbeated, until they exit or the process ends.
	 */
	public Duration shutdownGrace() {
		return shutdownGrace;
	}

	/** How long a handler that declares no timeout may run before it is interrupted; zero: no limit. */
	public Duration defaultTimeout() {
		return defaultTimeout;
	}

	/** The retry policy of handlers that declare none, and of jobs of kinds this node does not run. */
	public RetryPolicy retryPolicy() {
		return retryPolicy;
	}

	/** The longest error text (message and stack trace) stored with a job. */
	public int maxErrorLength() {
		return maxErrorLength;
	}

	/** The longest result stored with a job, in characters of JSON; a longer one fails its job, dead. */
	public int maxResultLength() {
		return maxResultLength;
	}

	/** The longest payload an enqueue accepts, in characters of JSON. */
	public int maxPayloadLength() {
		return maxPayloadLength;
	}

	/**
	 * Whether a payload property that the handler's type does not have fails the binding (at enqueue, for a
	 * {@code Map} or other JSON value, and in the worker), so that a renamed or misspelled field is an error
	 * rather than a silent {@code null}. True by default.
	 */
	public boolean failOnUnknownPayloadProperties() {
		return failOnUnknownPayloadProperties;
	}

	/**
	 * Limits of concurrency keys by prefix: a job whose key starts with a prefix here takes the limit of the
	 * longest such prefix, whatever its kind's handler declares. Empty by default.
	 */
	public Map<String, Integer> concurrencyKeyLimits() {
		return concurrencyKeyLimits;
	}

	@Override
	public String toString() {
		return "RuntimeSettings[queues=" + queues + ", prefetches=" + prefetches + ", initiallyPaused=" + initiallyPaused
				+ ", lease=" + lease + ", heartbeatInterval=" + heartbeatInterval
				+ ", pollInterval=" + pollInterval + "]";
	}

	/** Collects settings; {@link #build()} checks them together, naming the one that is wrong. */
	public static final class Builder {

		private final Map<String, Integer> queues = new LinkedHashMap<>();

		private final Map<String, Integer> prefetches = new LinkedHashMap<>();

		private final Set<String> initiallyPaused = new LinkedHashSet<>();

		private Duration pollInterval = Duration.ofSeconds(1);

		private Duration lease = Duration.ofSeconds(30);

		private Duration heartbeatInterval = Duration.ofSeconds(10);

		private Duration reaperInterval = Duration.ofSeconds(5);

		private Duration pruneInterval = Duration.ofMinutes(1);

		private Duration vacuumInterval = Duration.ofSeconds(2);

		private Duration finishedRetention = Duration.ofDays(1);

		private Duration deadRetention = Duration.ofDays(14);

		private Duration shutdownTimeout = Duration.ofSeconds(15);

		private Duration shutdownGrace = Duration.ofSeconds(5);

		private Duration defaultTimeout = Duration.ZERO;

		private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;

		private int maxErrorLength = 16 * 1024;

		private int maxResultLength = DEFAULT_MAX_PAYLOAD_LENGTH;

		private int maxPayloadLength = DEFAULT_MAX_PAYLOAD_LENGTH;

		private boolean failOnUnknownPayloadProperties = true;

		private final Map<String, Integer> concurrencyKeyLimits = new LinkedHashMap<>();

		private Builder() {
			queues.put(DEFAULT_QUEUE, 8);
		}

		private Builder(RuntimeSettings settings) {
			queues(settings.queues);
			prefetches.putAll(settings.prefetches);
			initiallyPaused.addAll(settings.initiallyPaused);
			pollInterval = settings.pollInterval;
			lease = settings.lease;
			heartbeatInterval = settings.heartbeatInterval;
			reaperInterval = settings.reaperInterval;
			pruneInterval = settings.pruneInterval;
			vacuumInterval = settings.vacuumInterval;
			finishedRetention = settings.finishedRetention;
			deadRetention = settings.deadRetention;
			shutdownTimeout = settings.shutdownTimeout;
			shutdownGrace = settings.shutdownGrace;
			defaultTimeout = settings.defaultTimeout;
			retryPolicy = settings.retryPolicy;
			maxErrorLength = settings.maxErrorLength;
			maxResultLength = settings.maxResultLength;
			maxPayloadLength = settings.maxPayloadLength;
			failOnUnknownPayloadProperties = settings.failOnUnknownPayloadProperties;
			concurrencyKeyLimits.putAll(settings.concurrencyKeyLimits);
		}

		/** The queues to work, replacing those set before (by default: {@code default} with 8 threads). */
		public Builder queues(Map<String, Integer> queues) {
			this.queues.clear();
			queues.forEach(this::queue);
			return this;
		}

		/**
		 * Works {@code name} with {@code concurrency} threads, besides the queues set before; 0 takes it off
		 * this node, {@code default} included (a node dedicated to other queues): its jobs wait for a node
		 * that works it.
		 */
		public Builder queue(String name, int concurrency) {
			QueueNames.requireValid(name, "queue name");
			Validate.isTrue(concurrency >= 0, "queues." + name + ".concurrency",
					"must not be negative (0: not worked on this node), was " + concurrency);
			if (concurrency == 0) {
				queues.remove(name);
			}
			else {
				queues.put(name, concurrency);
			}
			return this;
		}

		/**
		 * Lets up to {@code jobs} claimed jobs of queue {@code name} wait on this node for a free thread, beyond
		 * those running (0, the default: a claim takes only as many jobs as there are free threads). For short jobs
		 * at high rates: each claim takes more jobs, and a thread that frees up starts the next job without
		 * waiting for a claim. A waiting job holds its lease, renewed by the heartbeat, so no other node takes it,
		 * even when this node's threads are busy with long jobs: leave it at 0 for queues whose jobs take seconds.
		 */
		public Builder prefetch(String name, int jobs) {
			QueueNames.requireValid(name, "queue name");
			Validate.isTrue(jobs >= 0, "queues." + name + ".prefetch", "must not be negative, was " + jobs);
			if (jobs == 0) {
				prefetches.remove(name);
			}
			else {
				prefetches.put(name, jobs);
			}
			return this;
		}

		/**
		 * Starts queue {@code name} paused in the whole cluster, once: a worker node pauses it as it starts
		 * unless the queue was ever paused or resumed before, so a restart never undoes an operator's resume.
		 * For a queue that must not run until someone says so, such as a new backfill.
		 */
		public Builder initiallyPaused(String name) {
			initiallyPaused.add(QueueNames.requireValid(name, "initially paused queue name"));
			return this;
		}

		public Builder pollInterval(Duration pollInterval) {
			this.pollInterval = Validate.positive(pollInterval, "poll-interval");
			return this;
		}

		public Builder lease(Duration lease) {
			this.lease = Validate.positive(lease, "lease");
			return this;
		}

		public Builder heartbeatInterval(Duration heartbeatInterval) {
			this.heartbeatInterval = Validate.positive(heartbeatInterval, "heartbeat-interval");
			return this;
		}

		public Builder reaperInterval(Duration reaperInterval) {
			this.reaperInterval = Validate.positive(reaperInterval, "reaper-interval");
			return this;
		}

		public Builder pruneInterval(Duration pruneInterval) {
			this.pruneInterval = Validate.positive(pruneInterval, "prune-interval");
			return this;
		}

		/** Zero turns vacuuming off. */
		public Builder vacuumInterval(Duration vacuumInterval) {
			this.vacuumInterval = Validate.notNegative(vacuumInterval, "vacuum-interval");
			return this;
		}

		public Builder finishedRetention(Duration finishedRetention) {
			this.finishedRetention = Validate.notNegative(finishedRetention, "retention.succeeded");
			return this;
		}

		public Builder deadRetention(Duration deadRetention) {
			this.deadRetention = Validate.notNegative(deadRetention, "retention.dead");
			return this;
		}

		public Builder shutdownTimeout(Duration shutdownTimeout) {
			this.shutdownTimeout = Validate.notNegative(shutdownTimeout, "shutdown-timeout");
			return this;
		}

		public Builder shutdownGrace(Duration shutdownGrace) {
			this.shutdownGrace = Validate.notNegative(shutdownGrace, "shutdown-grace");
			return this;
		}

		/** Zero: no limit. */
		public Builder defaultTimeout(Duration defaultTimeout) {
			this.defaultTimeout = Validate.notNegative(defaultTimeout, "default-timeout");
			return this;
		}

		public Builder retryPolicy(RetryPolicy retryPolicy) {
			Validate.isTrue(retryPolicy != null, "retry-policy", "must not be null");
			this.retryPolicy = retryPolicy;
			return this;
		}

		public Builder maxErrorLength(int maxErrorLength) {
			Validate.isTrue(maxErrorLength >= 256, "max-error-length", "must be at least 256, was " + maxErrorLength);
			this.maxErrorLength = maxErrorLength;
			return this;
		}

		public Builder maxResultLength(int maxResultLength) {
			Validate.isTrue(maxResultLength >= 1, "max-result-length", "must be at least 1, was " + maxResultLength);
			this.maxResultLength = maxResultLength;
			return this;
		}

		public Builder maxPayloadLength(int maxPayloadLength) {
			Validate.isTrue(maxPayloadLength >= 1, "max-payload-length", "must be at least 1, was " + maxPayloadLength);
			this.maxPayloadLength = maxPayloadLength;
			return this;
		}

		/** See {@link RuntimeSettings#failOnUnknownPayloadProperties()}. */
		public Builder failOnUnknownPayloadProperties(boolean failOnUnknownPayloadProperties) {
			this.failOnUnknownPayloadProperties = failOnUnknownPayloadProperties;
			return this;
		}

		/**
		 * Jobs whose concurrency key starts with {@code prefix} may have {@code limit} of them ready or running. A
		 * prefix starting with {@link EnqueueOptions#KIND_KEY_PREFIX} is refused: only kinds' own keys start so, and
		 * no enqueue can give one, so it would limit nothing.
		 */
		public Builder concurrencyKeyLimit(String prefix, int limit) {
			Validate.isTrue(prefix != null && !prefix.isEmpty(), "concurrency-key-limits", "a prefix must not be empty");
			Validate.isTrue(!prefix.startsWith(EnqueueOptions.KIND_KEY_PREFIX), "concurrency-key-limits." + prefix,
					"must not start with '" + EnqueueOptions.KIND_KEY_PREFIX + "': only the keys of kinds' cluster-wide "
							+ "limits and rates start so, and no enqueue can give one");
			Validate.isTrue(limit >= 1, "concurrency-key-limits." + prefix, "must be at least 1, was " + limit);
			concurrencyKeyLimits.put(prefix, limit);
			return this;
		}

		/** @throws IllegalArgumentException when the heartbeat interval is not shorter than the lease */
		public RuntimeSettings build() {
			Validate.isTrue(heartbeatInterval.compareTo(lease) < 0, "heartbeat-interval",
					"(" + heartbeatInterval + ") must be shorter than lease (" + lease + ")");
			return new RuntimeSettings(this);
		}
	}
}
