package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.JobState;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.support.TestDatabase;

/**
 * Promotions of one key wait for each other whatever happens to the key's waiting jobs meanwhile: an operator's
 * retry of a dead job puts a job with a lower id back at the head of the key's waiting line while a promotion is
 * under way, and a second promotion of the key must still wait for the first, so that the key never has more
 * holders than its limit.
 *
 * <p>The first promotion is held inside its change of a row, before its commit, by a trigger each database makes
 * wait on a lock the test holds ({@link #pauseTheUpdateOf}). SQLite has no subclass: with one writer, a promotion
 * held open holds up the retry too, and no second promotion can start.
 */
public abstract class PromotionRaceContractTest {

	private static final String QUEUE = "promotion-race";

	private static final String KIND = "step";

	private static final String KEY = "tenant-race";

	private static final int LIMIT = 2;

	/** How long the second promotion is given to finish while the first is held; it must not. */
	private static final Duration HELD_FOR = Duration.ofSeconds(1);

	private final ExecutorService threads = Executors.newFixedThreadPool(2);

	protected abstract TestDatabase database();

	/**
	 * Makes the transaction that changes job {@code id}'s row wait inside that change, before it commits, until
	 * {@link Pause#release}; {@link Pause#close} then removes the pause once every transaction of the test ended.
	 */
	protected abstract Pause pauseTheUpdateOf(long id);

	/** A pause made by {@link #pauseTheUpdateOf}. */
	protected interface Pause extends AutoCloseable {

		/** Whether a transaction waits in the pause. */
		boolean reached();

		/** Lets the waiting transaction go on. */
		void release();

		@Override
		void close();
	}

	@BeforeEach
	void emptyTheQueue() {
		database().reset();
	}

	@AfterEach
	void stopThreads() {
		threads.shutdownNow();
	}

	@Test
	void aSecondPromotionWaitsForTheFirstEvenWhenARetriedJobHeadsTheWaitingLine() throws Exception {
		JobStore store = database().store();
		long running = enqueue(store);
		long dead = enqueue(store);
		store.promotions().promote(Set.of(KEY));
		List<ClaimedJob> claimed = store.claims().claim(QUEUE, Map.of(KIND, 1), 2, "race-test", Duration.ofMinutes(5),
				false);
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(running, dead);
		assertThat(store.outcomes().fail(claimed.get(1).lease(), "dead before the race")).isTrue();
		long promotedFirst = enqueue(store);
		long stillWaiting = enqueue(store);

		try (Pause pause = pauseTheUpdateOf(promotedFirst)) {
			Future<Set<String>> first = threads.submit(() -> store.promotions().promote(Set.of(KEY)));
			await().atMost(Duration.ofSeconds(30)).until(pause::reached);
			assertThat(store.writes().retryDead(dead)).isTrue();
			Future<Set<String>> second = threads.submit(() -> store.promotions().promote(Set.of(KEY)));
			Thread.sleep(HELD_FOR.toMillis());
			boolean secondWaited = !second.isDone();
			pause.release();
			first.get(30, TimeUnit.SECONDS);
			second.get(30, TimeUnit.SECONDS);

			assertThat(store.explain().keySlots(KEY, stillWaiting).orElseThrow().holderCount())
				.as("holders of %s after both promotions committed, expected at most its limit", KEY)
				.isLessThanOrEqualTo(LIMIT);
			assertThat(secondWaited).as("the second promotion waited for the first").isTrue();
		}
		assertThat(state(store, promotedFirst)).isEqualTo(JobState.ready);
		assertThat(state(store, dead)).isEqualTo(JobState.blocked);
		assertThat(state(store, stillWaiting)).isEqualTo(JobState.blocked);
	}

	private static long enqueue(JobStore store) {
		return store.enqueues()
			.enqueue(new NewJob(QUEUE, KIND, "{}", 1, 0, null, Duration.ZERO, 1, null,
					new NewJob.KeySlot(KEY, LIMIT, false)))
			.id();
	}

	private static JobState state(JobStore store, long id) {
		return store.reads().find(id).orElseThrow().state();
	}
}
