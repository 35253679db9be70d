package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.InterceptedStore;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * The local fence: a node that cannot renew a lease stops believing it holds it before the database's
 * lease runs out, so no other node can take a job while its handler here still runs.
 */
public abstract class LeaseFenceContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final RuntimeSettings SETTINGS = QueueFixture.SETTINGS.toBuilder()
			.lease(Duration.ofSeconds(3))
			.heartbeatInterval(Duration.ofMillis(500))
			.build();

	private final CountDownLatch unhang = new CountDownLatch(1);

	private final AtomicInteger running = new AtomicInteger();

	private final AtomicInteger mostAtOnce = new AtomicInteger();

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
	}

	@AfterEach
	void tearDown() {
		unhang.countDown();
		fixture.close();
	}

	@Test
	void aHandlerWhoseHeartbeatHangsIsInterruptedBeforeItsLeaseExpiresAndRunsOnceMoreNeverTwoAtOnce() {
		AtomicInteger calls = new AtomicInteger();
		AtomicReference<String> seenWhenInterrupted = new AtomicReference<>();
		fixture.handle("fenced", Greeting.class, (greeting, context) -> {
			enter();
			try {
				if (calls.incrementAndGet() == 1) {
					awaitInterrupt();
					Job job = fixture.job(context.jobId());
					seenWhenInterrupted.set("lease held " + context.isLeaseHeld() + ", job " + job.state()
							+ ", database lease still valid " + job.leaseExpiresAt().isAfter(Instant.now()));
					throw new InterruptedException("fenced");
				}
				return context.attempt();
			}
			finally {
				running.decrementAndGet();
			}
		});
		// A dropped connection, as far as the heartbeat thread can tell: its statement never returns. The
		// poller's confirmation of a claim, a heartbeat too, goes through, so that the handler starts.
		JobStore hangingHeartbeat = InterceptedStore.around(fixture.store(), "heartbeat", (args, proceed) -> {
			if (Thread.currentThread().getName().startsWith("jobqueue-leases")) {
				unhang.await();
			}
			return proceed.call();
		});
		fixture.startRuntime(hangingHeartbeat, SETTINGS, new CountingListener());

		long id = fixture.queue().enqueue("fenced", new Greeting("Ada", 1));

		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(JobState.succeeded));
		assertThat(seenWhenInterrupted).hasValue("lease held false, job running, database lease still valid true");
		assertThat(calls).hasValue(2);
		assertThat(mostAtOnce).hasValue(1);
		assertThat(fixture.job(id).result()).isEqualTo("2");
	}

	@Test
	void aJobWhoseLeaseRanOutBeforeItsHandlerStartedIsNotStartedThereAndRunsOnceMore() {
		List<Integer> attempts = new CopyOnWriteArrayList<>();
		fixture.handle("late", Greeting.class, (greeting, context) -> attempts.add(context.attempt()));
		long id = fixture.queue().enqueue("late", new Greeting("Ada", 1));
		// The first claim's answer arrives only once its lease has run out and the job was reaped.
		AtomicBoolean heldBack = new AtomicBoolean();
		JobStore slowClaim = InterceptedStore.around(fixture.store(), "claim", (args, proceed) -> {
			Object claimed = proceed.call();
			if (!((List<?>) claimed).isEmpty() && heldBack.compareAndSet(false, true)) {
				await().atMost(WAIT).until(() -> fixture.state(id) == JobState.ready);
			}
			return claimed;
		});
		fixture.startRuntime(slowClaim, SETTINGS, new CountingListener());

		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(JobState.succeeded));
		// The claim confirmed itself, and its answer was late, not lost: the reap kept its attempt, and the run is
		// attempt 2.
		assertThat(attempts).containsExactly(2);
		assertThat(fixture.job(id).attempt()).isEqualTo(2);
	}

	/**
	 * A claim that confirmed itself commits, and its answer is lost, and the first take-back of its confirmation
	 * fails too: the poller takes it back before its next claim, the reaper gives the attempt back, and the job's one
	 * attempt is still there to run.
	 */
	@Test
	void aConfirmedClaimWhoseAnswerIsLostGivesItsAttemptBackEvenWhenTheFirstTakeBackFails() {
		List<Integer> attempts = new CopyOnWriteArrayList<>();
		fixture.handle("lost", Greeting.class, (greeting, context) -> attempts.add(context.attempt()));
		AtomicBoolean answerLost = new AtomicBoolean();
		AtomicInteger takeBacks = new AtomicInteger();
		JobStore losing = InterceptedStore.around(fixture.store(), "claim", (args, proceed) -> {
			Object claimed = proceed.call();
			if (!((List<?>) claimed).isEmpty() && answerLost.compareAndSet(false, true)) {
				throw new DataAccessResourceFailureException("the connection was cut after the claim committed");
			}
			return claimed;
		});
		JobStore failingOnce = InterceptedStore.around(losing, "takeBackConfirmations", (args, proceed) -> {
			if (takeBacks.incrementAndGet() == 1) {
				throw new DataAccessResourceFailureException("still cut");
			}
			return proceed.call();
		});
		fixture.startRuntime(failingOnce, SETTINGS, new CountingListener());

		long id = fixture.queue().enqueue("lost", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(1));

		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(JobState.succeeded));
		assertThat(answerLost).isTrue();
		assertThat(takeBacks).hasValueGreaterThanOrEqualTo(2);
		assertThat(attempts).containsExactly(1);
	}

	private void enter() {
		mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
	}

	private static void awaitInterrupt() {
		try {
			Thread.sleep(WAIT.multipliedBy(3).toMillis());
		}
		catch (InterruptedException expected) {
			Thread.currentThread().interrupt();
		}
	}
}
