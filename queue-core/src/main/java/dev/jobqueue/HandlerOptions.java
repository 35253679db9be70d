package dev.jobqueue;

import java.time.Duration;

/**
 * How a handler's jobs run, as its declaration states it: the queue they go to when the enqueue names
 * none, how failures are retried, how long an execution may take, and whether the handler's database work
 * commits with the job's completion. Immutable: each method returns a copy with one option changed, and
 * checks it at once.
 */
public final class HandlerOptions {

	private static final HandlerOptions DEFAULTS = new HandlerOptions(RuntimeSettings.DEFAULT_QUEUE, null, null,
			false, 1, false, new KeyLimits(1, false, 0, 0, null));

	private final String queue;

	private final RetryPolicy retryPolicy;

	private final Duration timeout;

	private final boolean transactional;

	private final int version;

	private final boolean nullablePayload;

	private final KeyLimits keyLimits;

	/** The concurrency options, kept together so that each copy passes them on as one. */
	private record KeyLimits(int concurrencyKeyLimit, boolean deadJobBlocksKey, int clusterConcurrency,
			int rateStarts, Duration ratePeriod) {

		KeyLimits with(int concurrencyKeyLimit, boolean deadJobBlocksKey, int clusterConcurrency) {
			return new KeyLimits(concurrencyKeyLimit, deadJobBlocksKey, clusterConcurrency, rateStarts, ratePeriod);
		}
	}

	private HandlerOptions(String queue, RetryPolicy retryPolicy, Duration timeout, boolean transactional,
			int version, boolean nullablePayload, KeyLimits keyLimits) {
		this.queue = queue;
		this.retryPolicy = retryPolicy;
		this.timeout = timeout;
		this.transactional = transactional;
		this.version = version;
		this.nullablePayload = nullablePayload;
		this.keyLimits = keyLimits;
	}

	/**
	 * Queue {@code default}, the runtime's retry policy and timeout, not transactional, payload version 1, no
	 * {@code null} payload.
	 */
	public static HandlerOptions defaults() {
		return DEFAULTS;
	}

	/** 1 to 100 letters, digits, {@code _}, {@code .} or {@code -}. */
	public HandlerOptions queue(String queue) {
		return new HandlerOptions(QueueNames.requireValid(queue, "queue"), retryPolicy, timeout, transactional,
				version, nullablePayload, keyLimits);
	}

	/** The handler's own retry policy, instead of the runtime's default. */
	public HandlerOptions retryPolicy(RetryPolicy retryPolicy) {
		Validate.isTrue(retryPolicy != null, "retryPolicy", "must not be null");
		return new HandlerOptions(queue, retryPolicy, timeout, transactional, version, nullablePayload, keyLimits);
	}

	/** How long an execution may run before it is interrupted and its attempt failed. */
	public HandlerOptions timeout(Duration timeout) {
		return new HandlerOptions(queue, retryPolicy, Validate.positive(timeout, "timeout"), transactional, version,
				nullablePayload, keyLimits);
	}

	/**
	 * Whether the handler's work on the queue's {@code DataSource} and the job's completion commit in one
	 * transaction: the job succeeds exactly when the handler's writes do.
	 */
	public HandlerOptions transactional(boolean transactional) {
		return new HandlerOptions(queue, retryPolicy, timeout, transactional, version, nullablePayload, keyLimits);
	}

	/**
	 * The version of the payload the handler reads; jobs written at an older version are upcast to it
	 * ({@link PayloadUpcaster}), and a node never claims jobs written at a newer one.
	 */
	public HandlerOptions version(int version) {
		Validate.isTrue(version >= 1, "version", "must be at least 1, was " + version);
		return new HandlerOptions(queue, retryPolicy, timeout, transactional, version, nullablePayload, keyLimits);
	}

	/**
	 * Whether the handler takes a {@code null} payload; by default an enqueue with a {@code null} payload
	 * is refused, as a {@code @Nullable} parameter of a {@code @JobHandler} method would allow it.
	 */
	public HandlerOptions nullablePayload(boolean nullablePayload) {
		return new HandlerOptions(queue, retryPolicy, timeout, transactional, version, nullablePayload, keyLimits);
	}

	/**
	 * How many jobs of one concurrency key ({@link EnqueueOptions#concurrencyKey(String)}) of this kind may be
	 * ready or running at once, cluster-wide; 1 (the default) runs a key's jobs one after the other in
	 * enqueue order. A limit configured for the key's prefix wins over this one.
	 */
	public HandlerOptions concurrencyKeyLimit(int limit) {
		Validate.isTrue(limit >= 1, "concurrencyKeyLimit", "must be at least 1, was " + limit);
		return withKeyLimits(keyLimits.with(limit, keyLimits.deadJobBlocksKey(), keyLimits.clusterConcurrency()));
	}

	/**
	 * Whether a dead job of this kind keeps holding the slot of its concurrency key, so that the key's later
	 * jobs wait until an operator retries or cancels it (an ordered group that must not skip a failure);
	 * false by default: a dead job frees its slot and the key's next job runs.
	 */
	public HandlerOptions deadJobBlocksKey(boolean blocks) {
		return withKeyLimits(keyLimits.with(keyLimits.concurrencyKeyLimit(), blocks, keyLimits.clusterConcurrency()));
	}

	/**
	 * At most this many jobs of this kind ready or running at once in the whole cluster, 1 or more: its jobs
	 * share the concurrency key {@code kind:<kind>} with this limit, and take no key of their own. By default
	 * a kind has no such limit.
	 */
	public HandlerOptions clusterConcurrency(int limit) {
		Validate.isTrue(limit >= 1, "clusterConcurrency", "must be at least 1, was " + limit);
		Validate.isTrue(keyLimits.rateStarts() == 0, "clusterConcurrency",
				"excludes rateLimit, which caps how many run at once too");
		return withKeyLimits(keyLimits.with(keyLimits.concurrencyKeyLimit(), keyLimits.deadJobBlocksKey(), limit));
	}

	/**
	 * At most {@code starts} jobs of this kind start in any window of {@code period}, cluster-wide, per
	 * concurrency key: the job's own key when it has one, else the kind's ({@code kind:<kind>}). Such a key has
	 * {@code starts} slots, so it also runs at most that many at once, and a job that failed or snoozed waits
	 * as blocked for its next turn. Starts are the claims' times on the database's clock; a key's next job is
	 * promoted at the first sweep after a start leaves the window, so a key runs up to a poll interval behind
	 * its rate. Excludes {@link #clusterConcurrency(int)}.
	 */
	public HandlerOptions rateLimit(int starts, Duration period) {
		Validate.isTrue(starts >= 1, "rateLimit", "starts must be at least 1, was " + starts);
		Validate.positive(period, "rateLimit period");
		Validate.isTrue(period.toMillis() >= 1, "rateLimit", "period must be at least 1 ms, was " + period);
		Validate.isTrue(keyLimits.clusterConcurrency() == 0, "rateLimit", "excludes clusterConcurrency");
		return withKeyLimits(new KeyLimits(keyLimits.concurrencyKeyLimit(), keyLimits.deadJobBlocksKey(), 0, starts,
				period));
	}

	private HandlerOptions withKeyLimits(KeyLimits limits) {
		return new HandlerOptions(queue, retryPolicy, timeout, transactional, version, nullablePayload, limits);
	}

	public String queue() {
		return queue;
	}

	/** The handler's own policy, or {@code null} for the runtime's default. */
	public RetryPolicy retryPolicy() {
		return retryPolicy;
	}

	/** The handler's own timeout, or {@code null} for the runtime's default. */
	public Duration timeout() {
		return timeout;
	}

	public boolean transactional() {
		return transactional;
	}

	public int version() {
		return version;
	}

	public boolean nullablePayload() {
		return nullablePayload;
	}

	public int concurrencyKeyLimit() {
		return keyLimits.concurrencyKeyLimit();
	}

	public boolean deadJobBlocksKey() {
		return keyLimits.deadJobBlocksKey();
	}

	/** The kind's cluster-wide limit, or 0 for none. */
	public int clusterConcurrency() {
		return keyLimits.clusterConcurrency();
	}

	/** The starts a rate allows per {@link #ratePeriod()}, or 0 for no rate. */
	public int rateStarts() {
		return keyLimits.rateStarts();
	}

	/** The period of the rate, or {@code null} for no rate. */
	public Duration ratePeriod() {
		return keyLimits.ratePeriod();
	}
}
