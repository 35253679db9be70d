package dev.jobqueue;

import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Which jobs {@link JobQueue#search}, {@link JobQueue#retryAll(JobQuery)}, {@link JobQueue#cancelAll(JobQuery)}
 * and {@link JobQueue#deleteFinished(JobQuery)} select: every condition set must hold, and a condition left
 * unset selects every job. Immutable: each method returns a new query, so a query can be kept and refined.
 * Every value is checked where it is given, so a bad one fails there with an {@link IllegalArgumentException}.
 *
 * <pre>{@code
 * JobQuery deadReports = JobQuery.all().queue("reports").states(JobState.dead).errorContains("timeout");
 * }</pre>
 */
public final class JobQuery {

	/** The most jobs a page holds. */
	public static final int MAX_PAGE_SIZE = 500;

	/** The jobs a page holds unless {@link #pageSize(int)} says otherwise. */
	public static final int DEFAULT_PAGE_SIZE = 50;

	/** The longest text {@link #errorContains(String)} looks for. */
	public static final int MAX_ERROR_TEXT = 1_000;

	private static final JobQuery ALL = new JobQuery(null, null, EnumSet.allOf(JobState.class), null, null, null,
			null, null, DEFAULT_PAGE_SIZE);

	private final String queue;

	private final String kind;

	private final Set<JobState> states;

	private final Instant createdFrom;

	private final Instant createdBefore;

	private final Instant finishedFrom;

	private final Instant finishedBefore;

	private final String errorContains;

	private final int pageSize;

	private JobQuery(String queue, String kind, Set<JobState> states, Instant createdFrom, Instant createdBefore,
			Instant finishedFrom, Instant finishedBefore, String errorContains, int pageSize) {
		this.queue = queue;
		this.kind = kind;
		this.states = Collections.unmodifiableSet(EnumSet.copyOf(states));
		this.createdFrom = createdFrom;
		this.createdBefore = createdBefore;
		this.finishedFrom = finishedFrom;
		this.finishedBefore = finishedBefore;
		this.errorContains = errorContains;
		this.pageSize = pageSize;
	}

	/** Every job, in every state. */
	public static JobQuery all() {
		return ALL;
	}

	/** Jobs of this queue only. */
	public JobQuery queue(String queue) {
		QueueNames.requireValid(queue, "queue");
		return new JobQuery(queue, kind, states, createdFrom, createdBefore, finishedFrom, finishedBefore,
				errorContains, pageSize);
	}

	/** Jobs of this kind only. */
	public JobQuery kind(String kind) {
		Validate.noNul(Validate.notBlank(kind, "kind"), "kind");
		return new JobQuery(queue, kind, states, createdFrom, createdBefore, finishedFrom, finishedBefore,
				errorContains, pageSize);
	}

	/** Jobs in one of these states only; at least one. */
	public JobQuery states(JobState... states) {
		Validate.isTrue(states != null && states.length > 0, "states", "must name at least one state");
		Validate.isTrue(Arrays.stream(states).noneMatch(Objects::isNull), "states", "must not hold null");
		return new JobQuery(queue, kind, EnumSet.copyOf(Arrays.asList(states)), createdFrom, createdBefore,
				finishedFrom, finishedBefore, errorContains, pageSize);
	}

	/**
	 * Jobs enqueued at or after {@code from} and before {@code before} (the row's {@code created_at}, on the
	 * database's clock); either end may be null for no bound, not both.
	 */
	public JobQuery createdBetween(Instant from, Instant before) {
		checkRange("createdBetween", from, before);
		return new JobQuery(queue, kind, states, from, before, finishedFrom, finishedBefore, errorContains, pageSize);
	}

	/**
	 * Jobs that finished (succeeded, died or were cancelled; {@code finished_at}) at or after {@code from} and
	 * before {@code before}; either end may be null for no bound, not both. Unfinished jobs never match.
	 */
	public JobQuery finishedBetween(Instant from, Instant before) {
		checkRange("finishedBetween", from, before);
		return new JobQuery(queue, kind, states, createdFrom, createdBefore, from, before, errorContains, pageSize);
	}

	/**
	 * Jobs whose last error ({@link Job#lastError()}) contains {@code text}, as is: case matters, and
	 * {@code %} or {@code _} are plain characters.
	 */
	public JobQuery errorContains(String text) {
		Validate.noNul(Validate.notBlank(text, "errorContains"), "errorContains");
		Validate.isTrue(text.length() <= MAX_ERROR_TEXT, "errorContains",
				() -> "must be at most " + MAX_ERROR_TEXT + " characters, was " + text.length());
		return new JobQuery(queue, kind, states, createdFrom, createdBefore, finishedFrom, finishedBefore, text,
				pageSize);
	}

	/** How many jobs a page of {@link JobQueue#search} holds: 1 to {@link #MAX_PAGE_SIZE}. */
	public JobQuery pageSize(int pageSize) {
		Validate.isTrue(pageSize >= 1 && pageSize <= MAX_PAGE_SIZE, "pageSize",
				() -> "must be between 1 and " + MAX_PAGE_SIZE + ", was " + pageSize);
		return new JobQuery(queue, kind, states, createdFrom, createdBefore, finishedFrom, finishedBefore,
				errorContains, pageSize);
	}

	public String queue() {
		return queue;
	}

	public String kind() {
		return kind;
	}

	/** The states selected; every state unless {@link #states(JobState...)} was called. */
	public Set<JobState> states() {
		return states;
	}

	public Instant createdFrom() {
		return createdFrom;
	}

	public Instant createdBefore() {
		return createdBefore;
	}

	public Instant finishedFrom() {
		return finishedFrom;
	}

	public Instant finishedBefore() {
		return finishedBefore;
	}

	public String errorContains() {
		return errorContains;
	}

	public int pageSize() {
		return pageSize;
	}

	/** Whether every state selected is a finished one: the search then reads the index of finished rows. */
	public boolean onlyFinished() {
		return states.stream().allMatch(JobState::isFinished);
	}

	private static void checkRange(String option, Instant from, Instant before) {
		Validate.isTrue(from != null || before != null, option, "needs at least one bound");
		Validate.isTrue(from == null || before == null || from.isBefore(before), option,
				() -> "needs its start before its end, was " + from + " to " + before);
	}

	@Override
	public String toString() {
		return "JobQuery[queue=" + queue + ", kind=" + kind + ", states=" + states + ", created=" + createdFrom + ".."
				+ createdBefore + ", finished=" + finishedFrom + ".." + finishedBefore + ", errorContains="
				+ errorContains + ", pageSize=" + pageSize + "]";
	}
}
