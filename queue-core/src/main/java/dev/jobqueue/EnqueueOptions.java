package dev.jobqueue;

import java.time.Duration;
import java.time.Instant;

import dev.jobqueue.runtime.QueueNames;

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

	private static final EnqueueOptions DEFAULTS = new EnqueueOptions(null, DEFAULT_PRIORITY, null, null, null, null);

	private final String queue;

	private final int priority;

	private final Instant runAt;

	private final Duration delay;

	private final Integer maxAttempts;

	private final String uniqueKey;

	private EnqueueOptions(String queue, int priority, Instant runAt, Duration delay, Integer maxAttempts,
			String uniqueKey) {
		this.queue = queue;
		this.priority = priority;
		this.runAt = runAt;
		this.delay = delay;
		this.maxAttempts = maxAttempts;
		this.uniqueKey = uniqueKey;
	}

	/** Queue and attempts from the kind's handler (or the defaults), priority 5, due now. */
	public static EnqueueOptions defaults() {
		return DEFAULTS;
	}

	/**
	 * The queue to run on; by default the one the kind's handler declares, else {@code default}. A name is
	 * 1 to 100 letters, digits, {@code _}, {@code .} or {@code -} ({@link QueueNames}).
	 */
	public EnqueueOptions queue(String queue) {
		return new EnqueueOptions(QueueNames.requireValid(queue, "queue"), priority, runAt, delay, maxAttempts,
				uniqueKey);
	}

	/** 0 (runs first) to 9 (runs last); 5 by default. */
	public EnqueueOptions priority(int priority) {
		Validate.isTrue(priority >= HIGHEST_PRIORITY && priority <= LOWEST_PRIORITY, "priority",
				"must be between 0 and 9, was " + priority);
		return new EnqueueOptions(queue, priority, runAt, delay, maxAttempts, uniqueKey);
	}

	/** Not before this instant. Replaces any {@link #delay(Duration)}. */
	public EnqueueOptions runAt(Instant runAt) {
		Validate.isTrue(runAt != null, "runAt", "must not be null");
		return new EnqueueOptions(queue, priority, runAt, null, maxAttempts, uniqueKey);
	}

	/**
	 * Not before this long after the enqueue, measured on the database's clock. Replaces any
	 * {@link #runAt(Instant)}.
	 */
	public EnqueueOptions delay(Duration delay) {
		Validate.isTrue(delay != null && !delay.isNegative(), "delay", "must not be negative, was " + delay);
		return new EnqueueOptions(queue, priority, null, delay, maxAttempts, uniqueKey);
	}

	/** Executions before the job is dead; by default the handler's retry policy decides. */
	public EnqueueOptions maxAttempts(int maxAttempts) {
		Validate.isTrue(maxAttempts >= 1, "maxAttempts", "must be at least 1, was " + maxAttempts);
		return new EnqueueOptions(queue, priority, runAt, delay, maxAttempts, uniqueKey);
	}

	/**
	 * At most one unfinished (ready or running) job has this key: enqueueing another returns the
	 * existing job's id and writes nothing.
	 */
	public EnqueueOptions uniqueKey(String uniqueKey) {
		Validate.notBlank(uniqueKey, "uniqueKey");
		return new EnqueueOptions(queue, priority, runAt, delay, maxAttempts, uniqueKey);
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

	public String uniqueKey() {
		return uniqueKey;
	}
}
