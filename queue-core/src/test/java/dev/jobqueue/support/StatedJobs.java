package dev.jobqueue.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;

/**
 * Jobs put in a given state through the store's own statements, for tests of what reads or changes them. A job
 * that is to leave ready is enqueued at priority 0 and claimed at once, so the claim takes it and no other; jobs
 * left ready are at priority 5.
 */
public final class StatedJobs {

	private final JobStore store;

	public StatedJobs(JobStore store) {
		this.store = store;
	}

	public long ready(String queue, String kind) {
		return store.enqueues().enqueue(new NewJob(queue, kind, "{}", 1, 5, null, Duration.ZERO, 1, null)).id();
	}

	public ClaimedJob running(String queue, String kind) {
		return running(queue, kind, null);
	}

	public long succeeded(String queue, String kind) {
		ClaimedJob job = running(queue, kind);
		assertThat(store.outcomes().complete(job.lease(), null)).isTrue();
		return job.id();
	}

	public long dead(String queue, String kind, String error) {
		return dead(queue, kind, error, null);
	}

	/** A dead job holding {@code uniqueKey} before it died. */
	public long dead(String queue, String kind, String error, String uniqueKey) {
		ClaimedJob job = running(queue, kind, uniqueKey);
		assertThat(store.outcomes().fail(job.lease(), error)).isTrue();
		return job.id();
	}

	/**
	 * A dead job of concurrency key {@code key} whose dead jobs hold their slot ({@code deadJobBlocksKey}), with a
	 * limit of 1: it holds the key's one slot.
	 */
	public long deadHoldingKey(String queue, String kind, String key) {
		long id = store.enqueues()
			.enqueue(new NewJob(queue, kind, "{}", 1, 0, null, Duration.ZERO, 1, null, new NewJob.KeySlot(key, 1, true)))
			.id();
		assertThat(store.promotions().promote(Set.of(key))).containsExactly(queue);
		List<ClaimedJob> claimed = store.claims().claim(queue, Map.of(kind, 1), 1, "stated-jobs", Duration.ofMinutes(5),
				false);
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(id);
		assertThat(store.outcomes().fail(claimed.get(0).lease(), "step failed")).isTrue();
		return id;
	}

	/** A job of concurrency key {@code key}, limit 1, written blocked: it waits for the key's slot. */
	public long blockedOnKey(String queue, String kind, String key) {
		return store.enqueues()
			.enqueue(new NewJob(queue, kind, "{}", 1, 5, null, Duration.ZERO, 1, null, new NewJob.KeySlot(key, 1, true)))
			.id();
	}

	public long cancelled(String queue, String kind) {
		long id = ready(queue, kind);
		assertThat(store.writes().cancel(id)).isTrue();
		return id;
	}

	private ClaimedJob running(String queue, String kind, String uniqueKey) {
		long id = store.enqueues().enqueue(new NewJob(queue, kind, "{}", 1, 0, null, Duration.ZERO, 1, uniqueKey)).id();
		List<ClaimedJob> claimed = store.claims().claim(queue, Map.of(kind, 1), 1, "stated-jobs", Duration.ofMinutes(5),
				false);
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(id);
		return claimed.get(0);
	}
}
