package dev.jobqueue.autoconfigure;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

import dev.jobqueue.JobQuery;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;

/**
 * What the console does to every job a filter matches, in the states the action applies to: a retry of the dead ones,
 * a cancel of the unfinished ones, a delete of the finished ones, each through {@link JobQueue}'s bulk operation (in
 * batches of 1,000), after a page that says how many ({@link ConsoleBulkPage}).
 */
enum ConsoleBulkAction {

	RETRY("Retry", "retried", "dead", EnumSet.of(JobState.dead)),

	CANCEL("Cancel", "cancelled", "unfinished", states(false)),

	DELETE("Delete", "deleted", "finished", states(true));

	private final String verb;

	private final String done;

	private final String states;

	private final Set<JobState> applies;

	ConsoleBulkAction(String verb, String done, String states, Set<JobState> applies) {
		this.verb = verb;
		this.done = done;
		this.states = states;
		this.applies = applies;
	}

	/** The action of a path such as {@code /jobs/retry-matching}, or null. */
	static ConsoleBulkAction ofPath(String path) {
		for (ConsoleBulkAction action : values()) {
			if (path.equals(action.path())) {
				return action;
			}
		}
		return null;
	}

	String path() {
		return "/jobs/" + id();
	}

	/** The button's id on the jobs page, and the path's last segment. */
	String id() {
		return name().toLowerCase(Locale.ROOT) + "-matching";
	}

	/** Whether the list filtered by {@code state} (null: any) may hold jobs the action applies to. */
	boolean offeredFor(JobState state) {
		return state == null || applies.contains(state);
	}

	/** "Retry", "Cancel", "Delete". */
	String verb() {
		return verb;
	}

	/** The participle a page and the audit line say: "retried", "cancelled", "deleted". */
	String done() {
		return done;
	}

	/** The jobs' states in words: the filter's state when it has one, else "dead", "unfinished", "finished". */
	String states(JobState state) {
		return state == null ? states : state.name();
	}

	/**
	 * The jobs of the filter that the action applies to.
	 * @throws IllegalArgumentException when the filter's state is one the action does not apply to
	 */
	JobQuery query(ConsoleJobsPage.Filter filter) {
		if (!offeredFor(filter.state())) {
			throw new IllegalArgumentException(verb + " applies to no " + filter.state() + " job");
		}
		JobQuery query = filter.anyState().query();
		return filter.state() == null ? query.states(applies.toArray(JobState[]::new)) : query.states(filter.state());
	}

	private static Set<JobState> states(boolean finished) {
		Set<JobState> states = EnumSet.noneOf(JobState.class);
		for (JobState state : JobState.values()) {
			if (state.isFinished() == finished) {
				states.add(state);
			}
		}
		return states;
	}

	long apply(JobQueue queue, JobQuery query) {
		return switch (this) {
			case RETRY -> queue.retryAll(query);
			case CANCEL -> queue.cancelAll(query);
			case DELETE -> queue.deleteFinished(query);
		};
	}
}
