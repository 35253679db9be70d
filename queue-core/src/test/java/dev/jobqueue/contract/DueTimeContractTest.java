package dev.jobqueue.contract;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A poller sleeps until the next job it could take is due, not until its next poll: on an idle node whose
 * poll interval is long, a delayed job and a retry start soon after they are due. The margin
 * ({@link #LATE}) is wide enough for a loaded machine and still far below the poll interval that used to
 * decide; both times are the database's ({@code run_at}, {@code started_at}).
 */
public abstract class DueTimeContractTest {

	private static final Duration LONG_POLL = Duration.ofSeconds(5);

	private static final Duration LATE = Duration.ofMillis(150);

	private static final Duration DELAY = Duration.ofMillis(300);

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@Test
	void aDelayedJobStartsSoonAfterItIsDueOnAnIdleNodeWithALongPollInterval() {
		fixture.handle("greet", Greeting.class, (greeting, context) -> null);
		fixture.startRuntime(settings(LONG_POLL), new CountingListener());

		long id = fixture.queue().enqueue("greet", new Greeting("Ada", 1), EnqueueOptions.defaults().delay(DELAY));

		Job job = awaitSucceeded(id);
		assertThat(Duration.between(job.runAt(), job.startedAt())).isBetween(Duration.ZERO, LATE);
	}

	@Test
	void aRetryStartsSoonAfterItsBackoffOnAnIdleNodeWithALongPollInterval() {
		AtomicInteger calls = new AtomicInteger();
		fixture.handle("greet", Greeting.class, new RetryPolicy(3, DELAY, DELAY, 1.0, 0.0), false,
				(greeting, context) -> {
					if (calls.incrementAndGet() == 1) {
						throw new IllegalStateException("first time unlucky");
					}
					return null;
				});
		fixture.startRuntime(settings(LONG_POLL), new CountingListener());

		long id = fixture.queue().enqueue("greet", new Greeting("Ada", 1));

		Job job = awaitSucceeded(id);
		assertThat(job.attempt()).isEqualTo(2);
		assertThat(Duration.between(job.runAt(), job.startedAt())).isBetween(Duration.ZERO, LATE);
	}

	/**
	 * Another node's delayed enqueue wakes no poller here (no local wakeup; a notification is sent only for
	 * jobs due now), so the job is found by a poll: each one looks a poll interval ahead, and a job due later
	 * than that when it is enqueued is seen before it is due, and started on time.
	 */
	@Test
	void aJobAnotherNodeEnqueuedWithADelayLongerThanThePollIntervalStartsOnTime() {
		fixture.handle("greet", Greeting.class, (greeting, context) -> null);
		Duration poll = Duration.ofSeconds(1);
		fixture.startRuntime(settings(poll), new CountingListener());

		long id = fixture.store().enqueues().enqueue(job("greet", 1, 5, poll.plusMillis(500))).id();

		Job job = awaitSucceeded(id);
		assertThat(Duration.between(job.runAt(), job.startedAt())).isBetween(Duration.ZERO, LATE);
	}

	@Test
	void theNextDueTimeIsTheEarliestJobTheClaimWouldTakeWithinTheHorizon() {
		JobStore store = fixture.store();
		store.enqueues().enqueue(job("mail", 1, 0, Duration.ofMillis(100)));
		store.enqueues().enqueue(job("greet", 2, 0, Duration.ofMillis(200)));
		store.enqueues().enqueue(job("greet", 1, 1, Duration.ofSeconds(30)));
		store.enqueues().enqueue(job("greet", 1, 9, Duration.ofSeconds(20)));
		store.enqueues().enqueue(new NewJob("reports", "greet", "{}", 1, 0, null, Duration.ofMillis(100), 3, null));

		assertThat(store.claims().nextDueWithin("default", Map.of("greet", 1), Duration.ofMinutes(1)))
			.hasValueSatisfying(due -> assertThat(due).isBetween(Duration.ofSeconds(19), Duration.ofSeconds(20)));
		assertThat(store.claims().nextDueWithin("default", Map.of("greet", 1), Duration.ofSeconds(10))).isEmpty();
		assertThat(store.claims().nextDueWithin("default", Map.of("greet", 2, "mail", 1), Duration.ofMinutes(1)))
			.hasValueSatisfying(due -> assertThat(due).isLessThanOrEqualTo(Duration.ofMillis(100)));
		assertThat(store.claims().nextDueWithin("default", Map.of(), Duration.ofMinutes(1))).isEmpty();

		store.enqueues().enqueue(job("greet", 1, 5, Duration.ZERO));

		assertThat(store.claims().nextDueWithin("default", Map.of("greet", 1), Duration.ofMinutes(1)))
			.hasValueSatisfying(due -> assertThat(due).isLessThanOrEqualTo(Duration.ZERO));
	}

	private static NewJob job(String kind, int version, int priority, Duration delay) {
		return new NewJob(RuntimeSettings.DEFAULT_QUEUE, kind, "{\"name\":\"Ada\",\"count\":1}", version, priority,
				null, delay, 3, null);
	}

	private static RuntimeSettings settings(Duration pollInterval) {
		return QueueFixture.SETTINGS.toBuilder().pollInterval(pollInterval).build();
	}

	private Job awaitSucceeded(long id) {
		await().atMost(Duration.ofSeconds(4))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> fixture.state(id) == JobState.succeeded);
		return fixture.job(id);
	}
}
