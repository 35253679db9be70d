package dev.jobqueue.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

import dev.jobqueue.JobState;

/**
 * A job ready to be written: options resolved, payload already JSON. Exactly one of {@code runAt}
 * and {@code delay} is set, so that a delay is measured on the store's own clock.
 *
 * @param payloadVersion the version of the payload's shape, 1 or more: claims by nodes that read only
 * older versions pass the job over
 * @param keySlot the concurrency key it waits for a slot of, or {@code null}: such a job is written
 * {@code blocked} and made ready by {@link PromotionStore#promote}
 * @param traceContext the propagation fields of the enqueue's span as a JSON object, or {@code null}: handed back
 * with the claimed job, so that its executions join the enqueue's trace
 * @param dependencies the jobs it runs after, and whether jobs will run after it
 * @param uniqueStates the finished states it also holds its unique key in, as {@link TransitionSql#uniqueStates}
 * writes them; 0 for none
 */
public record NewJob(String queue, String kind, String payload, int payloadVersion, int priority, Instant runAt,
		Duration delay, int maxAttempts, String uniqueKey, KeySlot keySlot, String traceContext,
		Dependencies dependencies, int uniqueStates) {

	/**
	 * Where a job stands in a workflow.
	 *
	 * @param after the ids of the jobs it runs after: with any, it is written {@code waiting}
	 * @param required whether each of them must succeed for it to run (else it is cancelled)
	 * @param hasDependents whether jobs enqueued with it run after it: its worker settles them as it ends
	 * @param batchCallback whether it is a batch's callback ({@link BatchStore}), written {@code waiting} for its batch
	 */
	public record Dependencies(List<Long> after, boolean required, boolean hasDependents, boolean batchCallback) {

		/** A job outside any workflow. */
		public static final Dependencies NONE = new Dependencies(List.of(), true, false);

		/** A batch's callback: it waits for its batch, not for jobs it names. */
		public static final Dependencies BATCH_CALLBACK = new Dependencies(List.of(), true, false, true);

		public Dependencies {
			after = List.copyOf(after);
		}

		/** A job of a workflow, or one outside any. */
		public Dependencies(List<Long> after, boolean required, boolean hasDependents) {
			this(after, required, hasDependents, false);
		}

		/** Whether the job waits for others. */
		public boolean waits() {
			return !after.isEmpty() || batchCallback;
		}
	}

	/**
	 * A concurrency key and the options its slots are handed out by.
	 *
	 * @param limit how many of the key's jobs may be ready or running at once (the key's first waiting job's
	 * limit decides)
	 * @param deadHolds whether the job keeps its slot once dead
	 * @param ratePeriod with a rate, the period in which at most {@code limit} of the key's jobs start; else null
	 */
	public record KeySlot(String key, int limit, boolean deadHolds, Duration ratePeriod) {

		public KeySlot {
			if (key == null || limit < 1) {
				throw new IllegalArgumentException("a concurrency key and a limit of at least 1 are needed, was "
						+ key + " with " + limit);
			}
		}

		/** A key without a rate. */
		public KeySlot(String key, int limit, boolean deadHolds) {
			this(key, limit, deadHolds, null);
		}

		/** The rate's period in milliseconds, or null. */
		public Long rateMillis() {
			return ratePeriod == null ? null : ratePeriod.toMillis();
		}
	}

	/** A job that holds its unique key, if any, only while unfinished. */
	public NewJob(String queue, String kind, String payload, int payloadVersion, int priority, Instant runAt,
			Duration delay, int maxAttempts, String uniqueKey, KeySlot keySlot, String traceContext,
			Dependencies dependencies) {
		this(queue, kind, payload, payloadVersion, priority, runAt, delay, maxAttempts, uniqueKey, keySlot,
				traceContext, dependencies, 0);
	}

	/** A job outside any workflow. */
	public NewJob(String queue, String kind, String payload, int payloadVersion, int priority, Instant runAt,
			Duration delay, int maxAttempts, String uniqueKey, KeySlot keySlot, String traceContext) {
		this(queue, kind, payload, payloadVersion, priority, runAt, delay, maxAttempts, uniqueKey, keySlot,
				traceContext, Dependencies.NONE);
	}

	/** A job without a trace context. */
	public NewJob(String queue, String kind, String payload, int payloadVersion, int priority, Instant runAt,
			Duration delay, int maxAttempts, String uniqueKey, KeySlot keySlot) {
		this(queue, kind, payload, payloadVersion, priority, runAt, delay, maxAttempts, uniqueKey, keySlot, null);
	}

	/** A job without a concurrency key. */
	public NewJob(String queue, String kind, String payload, int payloadVersion, int priority, Instant runAt,
			Duration delay, int maxAttempts, String uniqueKey) {
		this(queue, kind, payload, payloadVersion, priority, runAt, delay, maxAttempts, uniqueKey, null);
	}

	public NewJob {
		if ((runAt == null) == (delay == null)) {
			throw new IllegalArgumentException("exactly one of runAt and delay must be set");
		}
		if (dependencies == null) {
			dependencies = Dependencies.NONE;
		}
		if (payloadVersion < 1) {
			throw new IllegalArgumentException("payloadVersion must be at least 1, was " + payloadVersion);
		}
		if (uniqueStates != 0 && uniqueKey == null) {
			throw new IllegalArgumentException("uniqueStates need a unique key");
		}
	}

	/** The same job, written with {@code traceContext}. */
	public NewJob withTraceContext(String traceContext) {
		return new NewJob(queue, kind, payload, payloadVersion, priority, runAt, delay, maxAttempts, uniqueKey, keySlot,
				traceContext, dependencies, uniqueStates);
	}

	/** The same job, in a workflow as {@code dependencies} say. */
	public NewJob withDependencies(Dependencies dependencies) {
		return new NewJob(queue, kind, payload, payloadVersion, priority, runAt, delay, maxAttempts, uniqueKey, keySlot,
				traceContext, dependencies, uniqueStates);
	}

	/** The same job, holding its unique key also in these finished states. */
	public NewJob withUniqueStates(Collection<JobState> finishedStates) {
		return new NewJob(queue, kind, payload, payloadVersion, priority, runAt, delay, maxAttempts, uniqueKey, keySlot,
				traceContext, dependencies, TransitionSql.uniqueStates(finishedStates));
	}

	/**
	 * Which of the optional columns its insert writes, as an index into a dialect's four insert statements: 2 for
	 * {@code has_dependents}, plus 1 for {@code unique_states}. Other jobs leave them to their defaults, so that their
	 * statements stay those of a schema without them.
	 */
	public int optionalColumns() {
		return (hasDependents() ? 2 : 0) + (uniqueStates != 0 ? 1 : 0);
	}

	/** {@link #uniqueStates} as bound: null for 0, as the column's default. */
	public Integer uniqueStatesColumn() {
		return uniqueStates == 0 ? null : uniqueStates;
	}

	/**
	 * The state it is written in: {@code waiting} when it runs after other jobs or is a batch's callback, else {@code blocked} with a
	 * concurrency key, {@code ready} without.
	 */
	public String initialState() {
		return dependencies.waits() ? "waiting" : keySlot == null ? "ready" : "blocked";
	}

	/** Whether jobs enqueued with it run after it. */
	public boolean hasDependents() {
		return dependencies.hasDependents();
	}

	/** The concurrency key, or {@code null}. */
	public String concurrencyKey() {
		return keySlot == null ? null : keySlot.key();
	}

	/** The delay in milliseconds, for statements that add it to the store's clock. */
	public long delayMillis() {
		return delay == null ? 0 : delay.toMillis();
	}
}
