package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * A slot the reaper frees (a crashed node's job, dead at its last attempt) goes to its key's next job at the reap,
 * while promotions of other keys are asked for without pause: the reaper frees slots without knowing their keys,
 * and asks the maintaining node's promoter to sweep at once rather than at its timer's next turn.
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
				Duration.ofSeconds(1));
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
}
