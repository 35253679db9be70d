package dev.jobqueue.runtime;

import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ChangedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.OperatorReads;

/**
 * The operator's bulk retry, cancel and delete: a selection is changed {@link #BATCH} jobs at a time, each batch
 * one statement and so, outside a caller's transaction, one transaction of its own: a selection of a million jobs
 * never holds a million row locks, nor SQLite's write lock for long. A query's selection is walked by keyset from
 * the newest job down, so jobs that a batch changed (and that may match no more, or match still) are never met
 * twice. Afterwards, as for the one-job forms, the queues of jobs made ready are woken and the concurrency keys
 * whose slots changed hands are promoted, once the caller's transaction (if any) has committed.
 */
final class BulkOperations {

	/** The most jobs one statement changes. */
	static final int BATCH = 1_000;

	private static final Set<JobState> RETRYABLE = EnumSet.of(JobState.dead);

	/** Dead only for a job that holds its key's slot: the store's condition, as for {@code cancel(id)}. */
	private static final Set<JobState> CANCELLABLE = EnumSet.of(JobState.blocked, JobState.ready, JobState.running,
			JobState.dead);

	private static final Set<JobState> FINISHED = EnumSet.of(JobState.succeeded, JobState.cancelled, JobState.dead);

	private final JobStore store;

	private final KeyPromoter promoter;

	private final Consumer<String> wakeAfterCommit;

	BulkOperations(JobStore store, KeyPromoter promoter, Consumer<String> wakeAfterCommit) {
		this.store = store;
		this.promoter = promoter;
		this.wakeAfterCommit = wakeAfterCommit;
	}

	long retryAll(JobQuery query) {
		return byQuery(query, RETRYABLE, store.writes()::retryDeadAll, true);
	}

	long retryAll(Collection<Long> ids) {
		return byIds(ids, store.writes()::retryDeadAll, true);
	}

	long cancelAll(JobQuery query) {
		return byQuery(query, CANCELLABLE, store.writes()::cancelAll, false);
	}

	long cancelAll(Collection<Long> ids) {
		return byIds(ids, store.writes()::cancelAll, false);
	}

	long deleteFinished(JobQuery query) {
		return byQuery(query, FINISHED, store.writes()::deleteFinished, false);
	}

	private long byQuery(JobQuery query, Set<JobState> allowed, Function<List<Long>, List<ChangedJob>> operation,
			boolean makesReady) {
		if (query == null) {
			throw new IllegalArgumentException("query must not be null; JobQuery.all() selects every job");
		}
		EnumSet<JobState> states = EnumSet.copyOf(allowed);
		states.retainAll(query.states());
		if (states.isEmpty()) {
			return 0;
		}
		JobQuery selection = query.states(states.toArray(JobState[]::new));
		OperatorReads.IdSearch search = store.reads().search(selection);
		long changed = 0;
		long before = Long.MAX_VALUE;
		List<Long> ids;
		do {
			ids = search.idsBefore(before, BATCH);
			changed += apply(ids, operation, makesReady);
			before = ids.isEmpty() ? before : ids.get(ids.size() - 1);
		}
		while (ids.size() == BATCH);
		return changed;
	}

	private long byIds(Collection<Long> ids, Function<List<Long>, List<ChangedJob>> operation, boolean makesReady) {
		if (ids == null || ids.stream().anyMatch(Objects::isNull)) {
			throw new IllegalArgumentException("ids must not be null nor hold null");
		}
		List<Long> all = List.copyOf(new LinkedHashSet<>(ids));
		long changed = 0;
		for (int from = 0; from < all.size(); from += BATCH) {
			changed += apply(all.subList(from, Math.min(all.size(), from + BATCH)), operation, makesReady);
		}
		return changed;
	}

	/**
	 * A retried job without a key is ready: its queue is woken. One with a key is blocked, a cancelled one may have
	 * freed its key's slot, and a deleted one a start its key's rate counted: the key is promoted either way.
	 */
	private long apply(List<Long> ids, Function<List<Long>, List<ChangedJob>> operation, boolean makesReady) {
		if (ids.isEmpty()) {
			return 0;
		}
		List<ChangedJob> changed = operation.apply(ids);
		Set<String> keys = new LinkedHashSet<>();
		Set<String> queues = new LinkedHashSet<>();
		for (ChangedJob job : changed) {
			if (job.concurrencyKey() != null) {
				keys.add(job.concurrencyKey());
			}
			else if (makesReady) {
				queues.add(job.queue());
			}
		}
		promoter.promoteAfterCommit(keys);
		queues.forEach(wakeAfterCommit);
		return changed.size();
	}
}
