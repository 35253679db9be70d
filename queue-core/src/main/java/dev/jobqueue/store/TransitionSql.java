package dev.jobqueue.store;

import java.util.Collection;
import java.util.List;

import dev.jobqueue.JobState;

/**
 * The rules of {@link Transition} that a statement must apply in the database, row by row and atomically with its write. Columns
 * are qualified by the alias given, or unqualified for an empty one. Both renderings write the same rule; they
 * differ only in how a boolean column is tested.
 */
public final class TransitionSql {

	/** For databases with boolean columns (PostgreSQL, MySQL), tested as they are. */
	public static final TransitionSql BOOLEAN_COLUMNS = new TransitionSql(false);

	/**
	 * For SQLite's 0-and-1 columns, tested as {@code = 1} and {@code = 0}: the form its partial indexes of slot
	 * holders are declared in, which a query must repeat word for word for the planner to use them.
	 */
	public static final TransitionSql INTEGER_COLUMNS = new TransitionSql(true);

	private final boolean integerColumns;

	private TransitionSql(boolean integerColumns) {
		this.integerColumns = integerColumns;
	}

	/** The state a job goes back to from running: {@link Transition#back}. */
	public String backFromRunning(String alias) {
		return "CASE WHEN " + column(alias, "concurrency_rate_millis") + " IS NULL THEN 'ready' ELSE 'blocked' END";
	}

	/**
	 * The state a job enters the queue in, new or retried from dead ({@link Transition#RETRY_DEAD}): ready, or
	 * blocked with a concurrency key, to wait for a slot.
	 */
	public String entryState(String alias) {
		return "CASE WHEN " + column(alias, "concurrency_key") + " IS NULL THEN 'ready' ELSE 'blocked' END";
	}

	/**
	 * Whether a reap gives the attempt back ({@link Transition#REAP}), with the bound parameter
	 * {@code :maxUnconfirmedReaps} set to {@link Transition#MAX_UNCONFIRMED_REAPS}.
	 */
	public String reapGivesBack(String alias) {
		return "(" + isFalse(column(alias, "claim_confirmed")) + " AND " + column(alias, "unconfirmed_reaps")
				+ " < :maxUnconfirmedReaps)";
	}

	/** Whether a reap ends the job dead, given the SQL of whether it gives the attempt back. */
	public String reapKills(String alias, String givesBack) {
		return "(NOT " + givesBack + " AND " + column(alias, "attempt") + " >= " + column(alias, "max_attempts")
				+ ")";
	}

	/** The state a reap leads to, given the SQL of whether it gives the attempt back. */
	public String reapState(String alias, String givesBack) {
		return "CASE WHEN " + reapKills(alias, givesBack) + " THEN 'dead' WHEN "
				+ column(alias, "concurrency_rate_millis") + " IS NULL THEN 'ready' ELSE 'blocked' END";
	}

	/** Whether a release applies: {@link Transition#RELEASE} gives an attempt back once per job. */
	public String releasable(String alias) {
		return isFalse(column(alias, "attempt_given_back"));
	}

	/**
	 * Whether a keyed row holds a slot of its key: {@link Transition.Facts#holdsSlot}, for rows the caller already chose by
	 * their key. {@code stateColumn} is the column that holds a keyed row's state ({@code state}, or MySQL's
	 * indexed copy of it).
	 */
	public String holdsSlot(String alias, String stateColumn) {
		String state = column(alias, stateColumn);
		return "(" + state + " IN ('ready', 'running') OR (" + state + " = 'dead' AND "
				+ isTrue(column(alias, "concurrency_dead_holds")) + ") OR (" + state + " = 'cancelled' AND "
				+ column(alias, "lease_expires_at") + " IS NOT NULL))";
	}

	/**
	 * Whether {@link Transition#END_CANCELLED} applies: a cancelled row its worker's lease is still on. The
	 * statements add their fence (the worker's lease token, or the reaper's expiry).
	 */
	public String cancelledWithLease(String alias) {
		return "(" + column(alias, "state") + " = 'cancelled' AND " + column(alias, "lease_expires_at")
				+ " IS NOT NULL)";
	}

	/**
	 * The rows a heartbeat extends the lease of (with its fence, the worker and its token): running, or cancelled
	 * while its handler still runs ({@link #cancelledWithLease}), which keeps its key's slot until it exits.
	 */
	public String leaseKept(String alias) {
		return "(" + column(alias, "state") + " = 'running' OR " + cancelledWithLease(alias) + ")";
	}

	/** {@link #holdsSlot} of the row's {@code state} column. */
	public String holdsSlot(String alias) {
		return holdsSlot(alias, "state");
	}

	/** The states an operator's cancel applies to: {@link Transition#CANCEL}. */
	public String cancellable(String alias) {
		String state = column(alias, "state");
		return "(" + unfinished(alias) + " OR (" + state + " = 'dead' AND "
				+ isTrue(column(alias, "concurrency_dead_holds")) + "))";
	}

	/**
	 * The states of a job that has not finished, in which it holds its unique key: the states
	 * {@link Transition#CANCEL} applies to without a slot to free. Word for word the predicate of the unique
	 * keys' partial index, which a conflict clause must repeat.
	 */
	public String unfinished(String alias) {
		return column(alias, "state") + " IN ('waiting', 'blocked', 'ready', 'running')";
	}

	/**
	 * The finished states a job may also hold its unique key in ({@link dev.jobqueue.Unique#alsoFinished}), in the
	 * order of their bits in its {@code unique_states} column: the first is 1, the next 2, the last 4.
	 */
	public static final List<JobState> FINISHED_HOLDING_STATES = List.of(JobState.succeeded, JobState.dead,
			JobState.cancelled);

	/** The {@code unique_states} a job holding its key also in these finished states is written with; 0 for none. */
	public static int uniqueStates(Collection<JobState> finishedStates) {
		int bits = 0;
		for (JobState state : finishedStates) {
			int index = FINISHED_HOLDING_STATES.indexOf(state);
			if (index < 0) {
				throw new IllegalArgumentException(state + " is no finished state");
			}
			bits |= 1 << index;
		}
		return bits;
	}

	/**
	 * Whether the row holds its unique key: unfinished ({@link #unfinished}), or in a finished state its
	 * {@code unique_states} names. A null {@code unique_states}, every job's but those enqueued with finished states,
	 * leaves the expression null, which a partial index and a WHERE take as false. Word for word the predicate of the
	 * unique keys' index on PostgreSQL and SQLite, and of MySQL's generated {@code unfinished_unique_key}: the conflict
	 * clauses repeat it, and the migrations are checked against it.
	 */
	public String holdsUniqueKey(String alias) {
		StringBuilder bits = new StringBuilder("CASE ").append(column(alias, "state"));
		for (int i = 0; i < FINISHED_HOLDING_STATES.size(); i++) {
			bits.append(" WHEN '").append(FINISHED_HOLDING_STATES.get(i).name()).append("' THEN ").append(1 << i);
		}
		bits.append(" ELSE 0 END");
		return "(" + unfinished(alias) + " OR (" + column(alias, "unique_states") + " & " + bits + ") <> 0)";
	}

	/** A boolean as a statement binds it: {@code 1} or {@code 0} on SQLite, as it is elsewhere. */
	public Object bindBoolean(boolean value) {
		return integerColumns ? Integer.valueOf(value ? 1 : 0) : Boolean.valueOf(value);
	}

	private String isTrue(String column) {
		return integerColumns ? column + " = 1" : column;
	}

	private String isFalse(String column) {
		return integerColumns ? column + " = 0" : "NOT " + column;
	}

	private static String column(String alias, String column) {
		return alias.isEmpty() ? column : alias + "." + column;
	}
}
