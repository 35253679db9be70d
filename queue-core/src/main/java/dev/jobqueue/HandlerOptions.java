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
			false, 1, false);

	private final String queue;

	private final RetryPolicy retryPolicy;

	private final Duration timeout;

	private final boolean transactional;

	private final int version;

	private final boolean nullablePayload;

	private HandlerOptions(String queue, RetryPolicy retryPolicy, Duration timeout, boolean transactional,
			int version, boolean nullablePayload) {
		this.queue = queue;
		this.retryPolicy = retryPolicy;
		this.timeout = timeout;
		this.transactional = transactional;
		this.version = version;
		this.nullablePayload = nullablePayload;
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
				version, nullablePayload);
	}

	/** The handler's own retry policy, instead of the runtime's default. */
	public HandlerOptions retryPolicy(RetryPolicy retryPolicy) {
		Validate.isTrue(retryPolicy != null, "retryPolicy", "must not be null");
		return new HandlerOptions(queue, retryPolicy, timeout, transactional, version, nullablePayload);
	}

	/** How long an execution may run before it is interrupted and its attempt failed. */
	public HandlerOptions timeout(Duration timeout) {
		return new HandlerOptions(queue, retryPolicy, Validate.positive(timeout, "timeout"), transactional, version,
				nullablePayload);
	}

	/**
	 * Whether the handler's work on the queue's {@code DataSource} and the job's completion commit in one
	 * transaction: the job succeeds exactly when the handler's writes do.
	 */
	public HandlerOptions transactional(boolean transactional) {
		return new HandlerOptions(queue, retryPolicy, timeout, transactional, version, nullablePayload);
	}

	/**
	 * The version of the payload the handler reads; jobs written at an older version are upcast to it
	 * ({@link PayloadUpcaster}), and a node never claims jobs written at a newer one.
	 */
	public HandlerOptions version(int version) {
		Validate.isTrue(version >= 1, "version", "must be at least 1, was " + version);
		return new HandlerOptions(queue, retryPolicy, timeout, transactional, version, nullablePayload);
	}

	/**
	 * Whether the handler takes a {@code null} payload; by default an enqueue with a {@code null} payload
	 * is refused, as a {@code @Nullable} parameter of a {@code @JobHandler} method would allow it.
	 */
	public HandlerOptions nullablePayload(boolean nullablePayload) {
		return new HandlerOptions(queue, retryPolicy, timeout, transactional, version, nullablePayload);
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
}
