package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobHandlerDefinition.KeyLimits;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.PromotionStore;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * A slot the reaper frees (a crashed node's job, dead at its last attempt) goes to its key's next job at the reap,
 * while promotions of other keys are asked for without pause: the reaper frees slots without knowing their keys,
 * and asks the maintaining node's promoter to sweep at once rather than at its timer's next turn. A rated key's
 * start that leaves its window frees a slot no write announces, and is handed on as it leaves, not at the sweep.
 */
public abstract class FreedSlotContractTest {

	/** A queue no runtime here works: the crashed node's job and its successor wait there, untouched. */
	private static final String ELSEWHERE = "elsewhere";

	/** The sweep's timer (the poll interval): far longer than a reap pass, so that only an asked sweep is quick. */
	private static final Duration SWEEP_INTERVAL = Duration.ofSeconds(8);

	/** The reaper's interval (200 ms) and a sweep, with room for a loaded machine; the timer alone takes 8 s. */
	private static final Duration HANDED_ON_WITHIN = Duration.ofSeconds(3);

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.handle("greet", Greeting.class, (greeting, context) -> {
			Thread.sleep(20);
			return null;
		});
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@Test
	void aSlotFreedByAReapGoesToTheKeysNextJobAtTheReapUnderSteadyKeyedLoad() {
		CountingListener listener = new CountingListener();
		JobRuntime runtime = fixture.startRuntime(QueueFixture.SETTINGS.toBuilder()
			.pollInterval(SWEEP_INTERVAL)
			.queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, 2))
			.build(), listener);
		await().atMost(Duration.ofSeconds(10)).until(runtime::maintaining);
		fixture.queue().enqueueAll(IntStream.range(0, 200)
			.mapToObj(i -> new NewJobRequest("greet", new Greeting("steady", i), EnqueueOptions.defaults().concurrencyKey("busy")))
			.toList());

		long crashed = fixture.queue().enqueue("greet", new Greeting("crashed", 0),
				EnqueueOptions.defaults().queue(ELSEWHERE).concurrencyKey("stalled").maxAttempts(1));
		await().atMost(Duration.ofSeconds(5)).until(() -> fixture.state(crashed) == JobState.ready);
		// Started (confirmed), then the node died: its lease runs out and the reap charges the last attempt.
		List<ClaimedJob> claimed = fixture.store().claims().claim(ELSEWHERE, Map.of("greet", 1), 1, "crashed-node",
				Duration.ofSeconds(1), false);
		assertThat(claimed).hasSize(1);
		fixture.store().claims().confirm("crashed-node", List.of(claimed.get(0).lease()));
		long next = fixture.queue().enqueue("greet", new Greeting("next", 1),
				EnqueueOptions.defaults().queue(ELSEWHERE).concurrencyKey("stalled"));
		assertThat(fixture.state(next)).isEqualTo(JobState.blocked);

		await().atMost(Duration.ofSeconds(5)).until(() -> fixture.state(crashed) == JobState.dead);
		long reapedAt = System.nanoTime();
		await().atMost(SWEEP_INTERVAL.multipliedBy(2)).until(() -> fixture.state(next) == JobState.ready);
		Duration handedOnAfter = Duration.ofNanos(System.nanoTime() - reapedAt);

		assertThat(handedOnAfter).isLessThan(HANDED_ON_WITHIN);
		assertThat(fixture.state(next)).isEqualTo(JobState.ready);
	}

	/**
	 * The sweep examines waiting keys a bounded stretch at a time, in key order, each stretch taking up after the
	 * last key of the one before, so that a sweep's turn costs the same at any number of keys; a slot freed with no
	 * promotion after it (here the holder's row deleted by hand) is found in the stretch its key falls in.
	 */
	@Test
	void theSweepWalksTheWaitingKeysInStretchesAndFindsAFreeSlotInTheStretchOfItsKey() {
		List<String> keys = IntStream.range(0, 25).mapToObj(i -> String.format("key-%02d", i)).toList();
		fixture.queue().enqueueAll(keys.stream()
			.flatMap(key -> IntStream.range(0, 2)
				.mapToObj(i -> new NewJobRequest("greet", new Greeting(key, i),
						EnqueueOptions.defaults().queue(ELSEWHERE).concurrencyKey(key))))
			.toList());
		await().atMost(Duration.ofSeconds(10))
			.until(() -> fixture.counts().get(ELSEWHERE).getOrDefault(JobState.ready, 0L) == keys.size());
		long holder = fixture.jdbc()
			.sql("SELECT id FROM jobqueue_job WHERE concurrency_key = 'key-21' AND state = 'ready'")
			.query(Long.class)
			.single();
		fixture.jdbc().sql("DELETE FROM jobqueue_job WHERE id = :id").param("id", holder).update();

		PromotionStore.Stretch first = fixture.store().promotions().promoteWaiting("", 10);
		PromotionStore.Stretch second = fixture.store().promotions().promoteWaiting(first.lastKey(), 10);
		assertThat(List.of(first, second)).as("the stretches before key-21's")
			.containsExactly(new PromotionStore.Stretch(Set.of(), "key-09"), new PromotionStore.Stretch(Set.of(), "key-19"));
		PromotionStore.Stretch third = fixture.store().promotions().promoteWaiting(second.lastKey(), 10);
		assertThat(third).isEqualTo(new PromotionStore.Stretch(Set.of(ELSEWHERE), null));
		assertThat(fixture.counts().get(ELSEWHERE).get(JobState.ready)).isEqualTo(keys.size());
		assertThat(fixture.counts().get(ELSEWHERE).get(JobState.blocked)).isEqualTo(keys.size() - 1);
	}

	/**
	 * One start per 500 ms: four jobs of the rated kind start within two seconds, each as the start before it leaves
	 * the window, where the sweep alone would hand on one start per turn of its 8 s timer.
	 */
	@Test
	void aRatedKeysNextJobStartsAsTheStartBeforeItLeavesTheWindowNotAtTheSweep() {
		fixture.handle(new JobHandlerDefinition("sync", RuntimeSettings.DEFAULT_QUEUE, Greeting.class, null, false,
				(payload, context) -> null, "rate-limited handler", null, 1, false,
				new KeyLimits(1, false, 0, 1, Duration.ofMillis(500))));
		fixture.startRuntime(QueueFixture.SETTINGS.toBuilder()
			.pollInterval(SWEEP_INTERVAL)
			.queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, 2))
			.build(), new CountingListener());
		List<Long> ids = fixture.queue()
			.enqueueAll(IntStream.range(0, 4).mapToObj(i -> new NewJobRequest("sync", new Greeting("rated", i))).toList());
		long enqueuedAt = System.nanoTime();

		await().atMost(SWEEP_INTERVAL.multipliedBy(4))
			.until(() -> ids.stream().allMatch(id -> fixture.state(id) == JobState.succeeded));
		Duration allStartedAfter = Duration.ofNanos(System.nanoTime() - enqueuedAt);

		assertThat(allStartedAfter).as("three hand-ons of 500 ms, with room for a loaded machine")
			.isLessThan(SWEEP_INTERVAL.dividedBy(2));
	}
}
