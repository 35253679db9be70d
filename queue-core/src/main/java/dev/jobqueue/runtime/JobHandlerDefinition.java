package dev.jobqueue.runtime;

import java.lang.reflect.Type;
import java.time.Duration;

import dev.jobqueue.JobHandlerFunction;
import dev.jobqueue.RetryPolicy;

/**
 * A registered handler: the kind it serves, where its jobs go by default, how its payload is bound, how
 * failures are retried and how long an execution may take.
 *
 * @param payloadType the type the JSON payload is bound to (generic types welcome)
 * @param retryPolicy the handler's own policy, or {@code null} for the runtime's default
 * @param transactional whether the handler's database work and the job's completion commit in one
 * transaction on the queue's {@code DataSource}
 * @param description who declared it (bean and method), for error messages
 * @param timeout how long an execution may run before it is interrupted and its attempt failed, or
 * {@code null} for the runtime's default
 * @param version the version of the payload's shape that {@code payloadType} reads, 1 or more: jobs enqueued
 * here carry it, older ones are upcast to it, newer ones are left to nodes that read them
 * @param payloadNullable whether an enqueue may pass a {@code null} payload
 * @param keyLimits how its jobs share concurrency keys
 */
public record JobHandlerDefinition(String kind, String queue, Type payloadType, RetryPolicy retryPolicy,
		boolean transactional, JobHandlerFunction<Object> function, String description, Duration timeout,
		int version, boolean payloadNullable, KeyLimits keyLimits) {

	/**
	 * The handler's concurrency options ({@link dev.jobqueue.HandlerOptions#concurrencyKeyLimit(int)} and the
	 * two after it).
	 *
	 * @param clusterConcurrency the kind's cluster-wide limit, or 0 for none
	 * @param rateStarts with a rate, at most this many starts per {@code ratePeriod} per key (the job's own, else
	 * the kind's); else 0
	 */
	public record KeyLimits(int concurrencyKeyLimit, boolean deadJobBlocksKey, int clusterConcurrency, int rateStarts,
			Duration ratePeriod) {

		/** Limit 1 per key, a dead job frees its slot, no cluster-wide limit, no rate. */
		public static final KeyLimits DEFAULTS = new KeyLimits(1, false, 0);

		public KeyLimits {
			if (clusterConcurrency > 0 && rateStarts > 0) {
				throw new IllegalArgumentException("clusterConcurrency and rateLimit exclude each other: a rate of "
						+ rateStarts + " starts also lets at most " + rateStarts + " run at once");
			}
		}

		/** Without a rate. */
		public KeyLimits(int concurrencyKeyLimit, boolean deadJobBlocksKey, int clusterConcurrency) {
			this(concurrencyKeyLimit, deadJobBlocksKey, clusterConcurrency, 0, null);
		}
	}

	/** The payload version of a handler that declares none, and of every job enqueued before versions. */
	public static final int FIRST_VERSION = 1;

	public JobHandlerDefinition {
		if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
			throw new IllegalArgumentException("timeout of " + description + " must be positive, was " + timeout);
		}
		if (keyLimits == null) {
			throw new IllegalArgumentException("keyLimits of " + description + " must not be null");
		}
		if (version < FIRST_VERSION) {
			throw new IllegalArgumentException("payload version of " + description + " must be at least 1, was "
					+ version);
		}
	}

	/** A handler with the default concurrency options. */
	public JobHandlerDefinition(String kind, String queue, Type payloadType, RetryPolicy retryPolicy,
			boolean transactional, JobHandlerFunction<Object> function, String description, Duration timeout,
			int version, boolean payloadNullable) {
		this(kind, queue, payloadType, retryPolicy, transactional, function, description, timeout, version,
				payloadNullable, KeyLimits.DEFAULTS);
	}

	/** A handler whose payload may not be null. */
	public JobHandlerDefinition(String kind, String queue, Type payloadType, RetryPolicy retryPolicy,
			boolean transactional, JobHandlerFunction<Object> function, String description, Duration timeout,
			int version) {
		this(kind, queue, payloadType, retryPolicy, transactional, function, description, timeout, version, false);
	}

	/** A handler of payload version 1. */
	public JobHandlerDefinition(String kind, String queue, Type payloadType, RetryPolicy retryPolicy,
			boolean transactional, JobHandlerFunction<Object> function, String description, Duration timeout) {
		this(kind, queue, payloadType, retryPolicy, transactional, function, description, timeout, FIRST_VERSION);
	}

	/** A handler of payload version 1 that takes the runtime's default timeout. */
	public JobHandlerDefinition(String kind, String queue, Type payloadType, RetryPolicy retryPolicy,
			boolean transactional, JobHandlerFunction<Object> function, String description) {
		this(kind, queue, payloadType, retryPolicy, transactional, function, description, null);
	}
}
