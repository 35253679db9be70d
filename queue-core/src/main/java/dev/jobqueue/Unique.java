package dev.jobqueue;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What makes a job a duplicate of another of its kind ({@link EnqueueOptions#unique(Unique)}): the same key, or the
 * same values of chosen payload fields, optionally within one period of time, while the other job is in a state that
 * holds the key. Unfinished jobs (waiting, blocked, ready, running) always hold it; {@link #alsoFinished} adds
 * finished states, for as long as such a job is kept (until pruned). Enforced by a unique index, so that two
 * enqueues racing on different nodes never both insert. Immutable: each method returns a copy.
 *
 * <pre>{@code
 * // at most one sync per customer and hour, counting the ones that already succeeded
 * queue.enqueueUnique("sync-customer", customer, EnqueueOptions.defaults()
 *         .unique(Unique.byPayload("customerId").per(Duration.ofHours(1)).alsoFinished(JobState.succeeded)));
 * }</pre>
 */
public final class Unique {

	/** Shortest {@link #per(Duration) period}. */
	public static final Duration MIN_PERIOD = Duration.ofSeconds(1);

	/** Most payload fields {@link #byPayload} takes. */
	public static final int MAX_FIELDS = 32;

	private final String key;

	private final List<String> fields;

	private final Duration period;

	private final Set<JobState> finishedStates;

	private Unique(String key, List<String> fields, Duration period, Set<JobState> finishedStates) {
		this.key = key;
		this.fields = fields;
		this.period = period;
		this.finishedStates = finishedStates;
	}

	/**
	 * Jobs of a kind with this key are duplicates. At most {@link EnqueueOptions#MAX_UNIQUE_KEY_BYTES} bytes of
	 * UTF-8, without U+0000.
	 */
	public static Unique byKey(String key) {
		return new Unique(Validate.key(key, "uniqueKey", EnqueueOptions.MAX_UNIQUE_KEY_BYTES), null, null, Set.of());
	}

	/**
	 * Jobs of a kind whose payloads have the same values in these top-level JSON fields are duplicates; with no
	 * field named, the same whole payload. The values are compared as JSON written with sorted field names, so
	 * {@code 1} and {@code 1.0} differ. A named field the payload does not have fails the enqueue, as the typo it most
	 * likely is; a field written as {@code null} counts as a value.
	 */
	public static Unique byPayload(String... fields) {
		Validate.isTrue(fields != null, "uniqueFields", "must not be null");
		List<String> named = Arrays.stream(fields).distinct().toList();
		Validate.isTrue(named.size() <= MAX_FIELDS, "uniqueFields",
				() -> "must name at most " + MAX_FIELDS + " fields, named " + named.size());
		named.forEach(field -> Validate.noNul(Validate.notBlank(field, "uniqueFields"), "uniqueFields"));
		return new Unique(null, named, null, Set.of());
	}

	/**
	 * Duplicates only within one period: the time the job is due ({@link EnqueueOptions#runAt}, else the
	 * enqueuing node's clock plus any delay) falls in a bucket of this length, counted from 1970-01-01T00:00Z, and
	 * only jobs of the same bucket are duplicates. At least {@link #MIN_PERIOD}, in whole seconds.
	 */
	public Unique per(Duration period) {
		Validate.isTrue(period != null && period.compareTo(MIN_PERIOD) >= 0 && period.getNano() == 0, "uniquePeriod",
				() -> "must be whole seconds, at least " + MIN_PERIOD + ", was " + period);
		return new Unique(key, fields, period, finishedStates);
	}

	/**
	 * Finished states in which a job also holds the key, as long as it is kept: with {@code succeeded}, a job that
	 * ran once turns its duplicates away until it is pruned. Only {@code succeeded}, {@code dead} and
	 * {@code cancelled}: the unfinished states hold it always. Replaces earlier ones.
	 */
	public Unique alsoFinished(JobState... states) {
		Validate.isTrue(states != null && Arrays.stream(states).allMatch(state -> state != null && state.isFinished()), "uniqueStates",
				() -> "must be finished states (succeeded, dead, cancelled): unfinished ones always hold the key, was "
						+ Arrays.toString(states));
		return new Unique(key, fields, period, states.length == 0 ? Set.of() : Set.copyOf(EnumSet.copyOf(
				Arrays.asList(states))));
	}

	/** The key of {@link #byKey}, or {@code null} for {@link #byPayload}. */
	public String key() {
		return key;
	}

	/** The fields of {@link #byPayload} (empty for the whole payload), or {@code null} for {@link #byKey}. */
	public List<String> fields() {
		return fields;
	}

	/** The period of {@link #per}, or {@code null}. */
	public Duration period() {
		return period;
	}

	/** The finished states of {@link #alsoFinished}; empty by default. */
	public Set<JobState> finishedStates() {
		return finishedStates;
	}

	@Override
	public String toString() {
		return (key != null ? "byKey(" + key + ")" : "byPayload(" + String.join(", ", fields) + ")")
				+ (period == null ? "" : ".per(" + period + ")")
				+ (finishedStates.isEmpty() ? "" : ".alsoFinished(" + finishedStates + ")");
	}
}
