package dev.jobqueue;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * How one job is enqueued. Immutable: every {@code with…} method returns a copy, and checks its
 * argument at once, naming the option it rejects.
 *
 * <pre>{@code
 * queue.enqueue("send-invoice", invoice, EnqueueOptions.defaults()
 *         .queue("billing").priority(1).delay(Duration.ofMinutes(5)).uniqueKey("invoice-" + invoice.id()));
 * }</pre>
 */
public final class EnqueueOptions {

	/** Lowest priority value: runs first. */
	public static final int HIGHEST_PRIORITY = 0;

	/** Highest priority value: runs last. */
	public static final int LOWEST_PRIORITY = 9;

	public static final int DEFAULT_PRIORITY = 5;

	/** Earliest {@link #runAt(Instant)}: the first instant of year 1. */
	public static final Instant EARLIEST_RUN_AT = Instant.parse("0001-01-01T00:00:00Z");

	/** Latest {@link #runAt(Instant)}: the last millisecond of year 9999. */
	public static final Instant LATEST_RUN_AT = Instant.parse("9999-12-31T23:59:59.999Z");

	/** Longest {@link #delay(Duration)}: 1000 years of 365 days. */
	public static final Duration MAX_DELAY = Duration.ofDays(365L * 1000);

	/** Longest {@link #uniqueKey(String)}, in bytes of UTF-8. */
	public static final int MAX_UNIQUE_KEY_BYTES = 1024;

	/** Longest {@link #concurrencyKey(String)}, in bytes of UTF-8. */
	public static final int MAX_CONCURRENCY_KEY_BYTES = 1024;

	/** The concurrency key of the jobs of a kind with a cluster-wide limit is this prefix and the kind. */
	public static final String KIND_KEY_PREFIX = "kind:";

	/** Most jobs one job may depend on ({@link #after}). */
	public static final int MAX_DEPENDENCIES = 1000;

	private static final EnqueueOptions DEFAULTS = new EnqueueOptions(null, DEFAULT_PRIORITY, null, null, null, null,
			null, null, List.of(), DependencyFailure.CANCEL);

	private final String queue;

	private final int priority;

	private final Instant runAt;

	private final Duration delay;

	private final Integer maxAttempts;

	private final Unique unique;

	private final Integer payloadVersion;

	private final String concurrencyKey;

	private final List<Long> after;

	private final DependencyFailure dependencyFailure;

	private EnqueueOptions(String queue, int priority, Instant runAt, Duration delay, Integer maxAttempts,
			Unique unique, Integer payloadVersion, String concurrencyKey, List<Long> after,
			DependencyFailure dependencyFailure) {
		this.queue = queue;
		this.priority = priority;
		this.runAt = runAt;
		this.delay = delay;
		this.maxAttempts = maxAttempts;
		this.unique = unique;
		this.payloadVersion = payloadVersion;
		this.concurrencyKey = concurrencyKey;
		this.after = after;
		this.dependencyFailure = dependencyFailure;
	}

	/** Queue, attempts and payload version from the kind's handler (or the defaults), priority 5, due now. */
	public static EnqueueOptions defaults() {
		return DEFAULTS;
	}

	/**
	 * The queue to run on; by default the one the kind's handler declares, else {@code default}. A name is
	 * 1 to 100 letters, digits, {@code _}, {@code .} or {@code -} ({@link QueueNames}).
	 */
	public EnqueueOptions queue(String queue) {
		return new EnqueueOptions(QueueNames.requireValid(queue, "queue"), priority, runAt, delay, maxAttempts,
				unique, payloadVersion, concurrencyKey,
				after, dependencyFailure);
	}

	/** 0 (runs first) to 9 (runs last); 5 by default. */
	public EnqueueOptions priority(int priority) {
		Validate.isTrue(priority >= HIGHEST_PRIORITY && priority <= LOWEST_PRIORITY, "priority",
				"must be between 0 and 9, was " + priority);
		return new EnqueueOptions(queue, priority, runAt, delay, maxAttempts, unique, payloadVersion,
				concurrencyKey, after, dependencyFailure);
	}

	/**
	 * Not before this instant, from {@link #EARLIEST_RUN_AT} to {@link #LATEST_RUN_AT}: the years every
	 * database of the queue stores, and its COPY text writes, alike. Replaces any {@link #delay(Duration)}.
	 */
	public EnqueueOptions runAt(Instant runAt) {
		Validate.isTrue(runAt != null, "runAt", "must not be null");
		Validate.isTrue(!runAt.isBefore(EARLIEST_RUN_AT) && !runAt.isAfter(LATEST_RUN_AT), "runAt",
				() -> "must be between " + EARLIEST_RUN_AT + " and " + LATEST_RUN_AT + ", was " + runAt);
		return new EnqueueOptions(queue, priority, runAt, null, maxAttempts, unique, payloadVersion, concurrencyKey,
				after, dependencyFailure);
	}

	/**
	 * Not before this long after the enqueue, measured on the database's clock; at most
	 * {@link #MAX_DELAY}, so that the sum stays inside every database's range of times whatever its clock
	 * reads. Replaces any {@link #runAt(Instant)}.
	 */
	public EnqueueOptions delay(Duration delay) {
		Validate.isTrue(delay != null && !delay.isNegative(), "delay", "must not be negative, was " + delay);
		Validate.isTrue(delay.compareTo(MAX_DELAY) <= 0, "delay",
				() -> "must be at most " + MAX_DELAY + " (1000 years), was " + delay);
		return new EnqueueOptions(queue, priority, null, delay, maxAttempts, unique, payloadVersion, concurrencyKey,
				after, dependencyFailure);
	}

	/** Executions before the job is dead; by default the handler's retry policy decides. */
	public EnqueueOptions maxAttempts(int maxAttempts) {
		Validate.isTrue(maxAttempts >= 1, "maxAttempts", "must be at least 1, was " + maxAttempts);
		return new EnqueueOptions(queue, priority, runAt, delay, maxAttempts, unique, payloadVersion,
				concurrencyKey, after, dependencyFailure);
	}

	/**
	 * {@link #unique(Unique)} by this key: {@code unique(Unique.byKey(uniqueKey))}. At most
	 * {@link #MAX_UNIQUE_KEY_BYTES} bytes of UTF-8, well under what PostgreSQL's unique index can hold (about 2700
	 * bytes), without U+0000.
	 */
	public EnqueueOptions uniqueKey(String uniqueKey) {
		return unique(Unique.byKey(uniqueKey));
	}

	/**
	 * At most one job of the kind holds this uniqueness at a time ({@link Unique} says which jobs count). Enqueue such
	 * a job with {@link JobQueue#enqueueUnique}, which says whether a job held it already and names that job;
	 * {@link JobQueue#enqueue} throws {@link DuplicateJobException} then. Either writes nothing for a duplicate.
	 * Replaces an earlier unique key.
	 */
	public EnqueueOptions unique(Unique unique) {
		Validate.isTrue(unique != null, "unique", "must not be null");
		return new EnqueueOptions(queue, priority, runAt, delay, maxAttempts, unique, payloadVersion,
				concurrencyKey, after, dependencyFailure);
	}

	/**
	 * The version of the payload's shape, 1 or more; by default the version the kind's handler declares,
	 * else 1. For a kind another application handles, say which of its versions the payload has: nodes
	 * whose handler reads only older versions leave the job to nodes that read this one.
	 */
	public EnqueueOptions payloadVersion(int payloadVersion) {
		Validate.isTrue(payloadVersion >= 1, "payloadVersion", "must be at least 1, was " + payloadVersion);
		return new EnqueueOptions(queue, priority, runAt, delay, maxAttempts, unique, payloadVersion,
				concurrencyKey, after, dependencyFailure);
	}

	/**
	 * The job's concurrency key, such as {@code "customer-42"}: at most as many jobs of one key are ready or
	 * running at a time as its limit allows, cluster-wide, and they get their turns in enqueue order; the
	 * others wait as {@link JobState#blocked}. The limit is the one configured for the key's longest prefix
	 * ({@code jobqueue.concurrency-key-limits}), else the kind's handler's
	 * ({@link HandlerOptions#concurrencyKeyLimit(int)}), else 1: with limit 1 the key's jobs run one after the
	 * other in enqueue order. Keys span kinds and queues. At most {@link #MAX_CONCURRENCY_KEY_BYTES} bytes of
	 * UTF-8, without U+0000; a kind with a cluster-wide limit ({@link HandlerOptions#clusterConcurrency(int)})
	 * takes none.
	 */
	public EnqueueOptions concurrencyKey(String concurrencyKey) {
		Validate.key(concurrencyKey, "concurrencyKey", MAX_CONCURRENCY_KEY_BYTES);
		Validate.isTrue(!concurrencyKey.startsWith(KIND_KEY_PREFIX), "concurrencyKey",
				() -> "must not start with '" + KIND_KEY_PREFIX + "', the prefix of kinds' cluster-wide limits, was "
						+ concurrencyKey);
		return new EnqueueOptions(queue, priority, runAt, delay, maxAttempts, unique, payloadVersion,
				concurrencyKey, after, dependencyFailure);
	}

	/**
	 * Runs only after these jobs: the job waits as {@link JobState#waiting} until each of them has finished, then
	 * enters its queue as a new job does; by default it is cancelled instead when one of them ended dead or cancelled
	 * ({@link #whenDependencyFails}). Every id must name a job that exists when the enqueue runs (one enqueued earlier
	 * in the same transaction does), else the enqueue fails and writes nothing; a job can only depend on jobs enqueued
	 * before it, so dependencies never form a cycle. At most {@link #MAX_DEPENDENCIES}; replaces earlier ones. Its
	 * handler reads them with {@link JobContext#dependencies()}. For a whole graph at once, see
	 * {@link JobQueue#workflow()}.
	 */
	public EnqueueOptions after(long... jobIds) {
		Validate.isTrue(jobIds != null, "after", "must not be null");
		return after(Arrays.stream(jobIds).boxed().toList());
	}

	/** {@link #after(long...)}, the ids as a collection. */
	public EnqueueOptions after(Collection<Long> jobIds) {
		Validate.isTrue(jobIds != null && !jobIds.contains(null), "after", "must be job ids, was " + jobIds);
		List<Long> distinct = List.copyOf(new LinkedHashSet<>(jobIds));
		Validate.isTrue(distinct.size() <= MAX_DEPENDENCIES, "after",
				() -> "must name at most " + MAX_DEPENDENCIES + " jobs, named " + distinct.size());
		return new EnqueueOptions(queue, priority, runAt, delay, maxAttempts, unique, payloadVersion,
				concurrencyKey, distinct, dependencyFailure);
	}

	/**
	 * What a dependency ({@link #after}) that ends dead or cancelled does to this job: cancels it (the default), or
	 * lets it run once every dependency has finished, whatever their ends.
	 */
	public EnqueueOptions whenDependencyFails(DependencyFailure policy) {
		Validate.isTrue(policy != null, "whenDependencyFails", "must not be null");
		return new EnqueueOptions(queue, priority, runAt, delay, maxAttempts, unique, payloadVersion,
				concurrencyKey, after, policy);
	}

	public String queue() {
		return queue;
	}

	public int priority() {
		return priority;
	}

	public Instant runAt() {
		return runAt;
	}

	public Duration delay() {
		return delay;
	}

	public Integer maxAttempts() {
		return maxAttempts;
	}

	/** What makes the job a duplicate, or {@code null} when any number of such jobs may be enqueued. */
	public Unique unique() {
		return unique;
	}

	public Integer payloadVersion() {
		return payloadVersion;
	}

	public String concurrencyKey() {
		return concurrencyKey;
	}

	/** The ids of the jobs this one runs after; empty for none. */
	public List<Long> after() {
		return after;
	}

	public DependencyFailure dependencyFailure() {
		return dependencyFailure;
	}
}
