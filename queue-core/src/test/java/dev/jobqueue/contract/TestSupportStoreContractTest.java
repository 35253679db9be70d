package dev.jobqueue.contract;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.LogCapture;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The store's statements for tests (the queue-test module), on every database: the newest id as a
 * watermark, the jobs above it, read inside an uncommitted transaction too, and ready and blocked jobs brought
 * forward.
 */
public abstract class TestSupportStoreContractTest {

	private static final int JOBS = 3000;

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.handle("greet", Greeting.class, (greeting, context) -> null);
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@Test
	void theNewestIdIsZeroOnAnEmptyTableAndTheIdOfTheLastJobAfterwards() {
		assertThat(fixture.testHooks().newestId()).isZero();

		fixture.queue().enqueue("greet", new Greeting("a", 1));
		long last = fixture.queue().enqueue("greet", new Greeting("b", 2));

		assertThat(fixture.testHooks().newestId()).isEqualTo(last);
	}

	@Test
	void theJobsNewerThanAnIdComeInIdOrderWhateverTheirStateUpToTheLimit() {
		long before = fixture.queue().enqueue("greet", new Greeting("before", 0));
		long watermark = fixture.testHooks().newestId();
		long first = fixture.queue().enqueue("greet", new Greeting("first", 1));
		long cancelled = fixture.queue().enqueue("greet", new Greeting("cancelled", 2));
		fixture.queue().cancel(cancelled);
		long third = fixture.queue().enqueue("greet", new Greeting("third", 3));

		List<Job> newer = fixture.testHooks().findNewerThan(watermark, 10);

		assertThat(newer).extracting(Job::id).containsExactly(first, cancelled, third).doesNotContain(before);
		assertThat(newer).extracting(Job::state).containsExactly(JobState.ready, JobState.cancelled, JobState.ready);
		assertThat(newer.get(0).payload()).contains("\"first\"");
		assertThat(fixture.testHooks().findNewerThan(watermark, 2)).extracting(Job::id).containsExactly(first, cancelled);
	}

	@Test
	void jobsEnqueuedInATransactionNotYetCommittedAreReadInsideIt() {
		long watermark = fixture.testHooks().newestId();

		List<Job> seen = fixture.transactions().execute(status -> {
			fixture.queue().enqueue("greet", new Greeting("uncommitted", 1));
			List<Job> inside = fixture.testHooks().findNewerThan(watermark, 10);
			status.setRollbackOnly();
			return inside;
		});

		assertThat(seen).extracting(Job::kind).containsExactly("greet");
		assertThat(fixture.testHooks().findNewerThan(watermark, 10)).isEmpty();
	}

	@Test
	void bringingReadyAndBlockedJobsForwardMovesEachByTheSameAmountAndLeavesFinishedJobsAlone() {
		long delayed = fixture.queue().enqueue("greet", new Greeting("later", 1),
				EnqueueOptions.defaults().delay(Duration.ofHours(1)));
		long due = fixture.queue().enqueue("greet", new Greeting("now", 2));
		long cancelled = fixture.queue().enqueue("greet", new Greeting("cancelled", 3),
				EnqueueOptions.defaults().delay(Duration.ofHours(1)));
		fixture.queue().cancel(cancelled);
		fixture.queue().enqueue("greet", new Greeting("first of its key", 4),
				EnqueueOptions.defaults().concurrencyKey("k"));
		long blocked = fixture.queue().enqueue("greet", new Greeting("behind its key", 5),
				EnqueueOptions.defaults().concurrencyKey("k").delay(Duration.ofHours(1)));
		Instant delayedAt = fixture.job(delayed).runAt();
		Instant dueAt = fixture.job(due).runAt();
		Instant cancelledAt = fixture.job(cancelled).runAt();
		Instant blockedAt = fixture.job(blocked).runAt();

		int moved = fixture.testHooks().bringReadyForward(Duration.ofMinutes(61));

		assertThat(moved).isEqualTo(4);
		assertThat(fixture.job(delayed).runAt()).isEqualTo(delayedAt.minus(Duration.ofMinutes(61)));
		assertThat(fixture.job(due).runAt()).isEqualTo(dueAt.minus(Duration.ofMinutes(61)));
		assertThat(fixture.job(blocked).state()).isEqualTo(JobState.blocked);
		assertThat(fixture.job(blocked).runAt()).isEqualTo(blockedAt.minus(Duration.ofMinutes(61)));
		assertThat(fixture.job(cancelled).runAt()).isEqualTo(cancelledAt);
		assertThat(fixture.job(delayed).runAt()).isCloseTo(Instant.now().minusSeconds(60),
				within(30, ChronoUnit.SECONDS));
	}

	/** A test moves time on while its application's workers claim and finish jobs: neither side may fail. */
	@Test
	void bringingJobsForwardWhileWorkersClaimThemFailsNothingAndLosesNoJob() {
		fixture.queue().enqueueAll(IntStream.range(0, JOBS)
			.mapToObj(i -> new NewJobRequest("greet", new Greeting("job", i), i % 2 == 0 ? EnqueueOptions.defaults()
					: EnqueueOptions.defaults().concurrencyKey("key-" + i % 20)))
			.toList());
		try (LogCapture log = new LogCapture()) {
			fixture.startRuntime(QueueFixture.SETTINGS.toBuilder()
				.queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, 8))
				.build(), new CountingListener());
			fixture.startRuntime(QueueFixture.SETTINGS.toBuilder()
				.queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, 8))
				.build(), new CountingListener());
			long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
			while (succeeded() < JOBS && System.nanoTime() < deadline) {
				fixture.testHooks().bringReadyForward(Duration.ofSeconds(1));
			}

			assertThat(succeeded()).isEqualTo(JOBS);
			assertThat(log.messagesAtLeast(Level.WARN)).isEmpty();
		}
	}

	private long succeeded() {
		return fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job WHERE state = 'succeeded'").query(Long.class).single();
	}
}
