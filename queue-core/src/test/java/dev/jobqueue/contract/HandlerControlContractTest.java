package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.CancelJobException;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobListener.Outcome;
import dev.jobqueue.JobState;
import dev.jobqueue.RetryAfterException;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.SnoozeException;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * A handler that snoozes, picks its retry time or cancels its job, and an operator who cancels a running job, on
 * every database.
 */
public abstract class HandlerControlContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final Duration HEARTBEAT = Duration.ofMillis(300);

	private static final RuntimeSettings SETTINGS = QueueFixture.SETTINGS.toBuilder()
		.heartbeatInterval(HEARTBEAT)
		.build();

	private final CountDownLatch letGo = new CountDownLatch(1);

	private final CountingListener listener = new CountingListener();

	private final List<Long> calls = new CopyOnWriteArrayList<>();

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
	}

	@AfterEach
	void tearDown() {
		letGo.countDown();
		fixture.close();
	}

	@Test
	void aSnoozeDoesNotCountAsAFailedAttemptAndTheJobRunsAgainAfterTheDelay() {
		fixture.handle("wait-for-input", Greeting.class, (greeting, context) -> {
			calls.add(System.nanoTime());
			if (calls.size() <= 2) {
				throw new SnoozeException(Duration.ofMillis(400));
			}
			return context.attempt();
		});
		fixture.startRuntime(SETTINGS, listener);

		long id = fixture.queue().enqueue("wait-for-input", new Greeting("Ada", 1));

		awaitState(id, JobState.succeeded);
		Job job = fixture.job(id);
		assertThat(job.result()).isEqualTo("1");
		assertThat(job.attempt()).isEqualTo(1);
		assertThat(job.errors()).isEmpty();
		assertThat(job.lastError()).isNull();
		assertThat(snoozes(id)).isEqualTo(2);
		assertThat(Duration.ofNanos(calls.get(1) - calls.get(0))).isGreaterThanOrEqualTo(Duration.ofMillis(400));
		assertThat(Duration.ofNanos(calls.get(2) - calls.get(1))).isGreaterThanOrEqualTo(Duration.ofMillis(400));
		assertThat(listener.count(Outcome.SNOOZED)).isEqualTo(2);
		assertThat(listener.count(Outcome.RETRIED)).isZero();
	}

	@Test
	void aJobThatSnoozedAsOftenAsItMayIsDeadAtItsNextSnoozeSayingSo() {
		fixture.handle("forever", Greeting.class, (greeting, context) -> {
			throw new SnoozeException(Duration.ofMillis(10));
		});
		long id = fixture.queue().enqueue("forever", new Greeting("Ada", 1));
		fixture.jdbc().sql("UPDATE jobqueue_job SET snoozes = :snoozes WHERE id = :id")
			.param("snoozes", SnoozeException.MAX_SNOOZES - 1)
			.param("id", id)
			.update();
		fixture.startRuntime(SETTINGS, listener);

		awaitState(id, JobState.dead);
		assertThat(snoozes(id)).isEqualTo(SnoozeException.MAX_SNOOZES);
		assertThat(fixture.job(id).lastError()).contains("snoozed 100 times, the most a job may");
		assertThat(listener.count(Outcome.SNOOZED)).isEqualTo(1);
		assertThat(listener.count(Outcome.DEAD)).isEqualTo(1);
	}

	@Test
	void aRetryTimeChosenByTheHandlerReplacesTheBackoffAndCountsAsAFailedAttempt() {
		fixture.handle("rate-limited", Greeting.class, (greeting, context) -> {
			calls.add(System.nanoTime());
			if (context.attempt() == 1) {
				throw new RetryAfterException(Duration.ofMillis(700), "429 Too Many Requests");
			}
			return context.attempt();
		});
		fixture.startRuntime(SETTINGS, listener);

		long id = fixture.queue().enqueue("rate-limited", new Greeting("Ada", 1));

		awaitState(id, JobState.succeeded);
		assertThat(Duration.ofNanos(calls.get(1) - calls.get(0))).isGreaterThanOrEqualTo(Duration.ofMillis(700));
		Job job = fixture.job(id);
		assertThat(job.attempt()).isEqualTo(2);
		assertThat(job.errors()).singleElement()
			.satisfies(error -> assertThat(error.message()).contains("429 Too Many Requests"));
		assertThat(listener.count(Outcome.RETRIED)).isEqualTo(1);
	}

	@Test
	void cancellingARunningJobInterruptsItsHandlerWithinAHeartbeatIntervalAndItsResultChangesNothing()
			throws InterruptedException {
		CountDownLatch started = new CountDownLatch(1);
		AtomicLong interruptedAt = new AtomicLong();
		AtomicBoolean sawCancelled = new AtomicBoolean();
		fixture.handle("long", Greeting.class, (greeting, context) -> {
			started.countDown();
			try {
				Thread.sleep(WAIT.multipliedBy(3).toMillis());
			}
			catch (InterruptedException ex) {
				interruptedAt.set(System.nanoTime());
				sawCancelled.set(context.isCancelled() && !context.isLeaseHeld());
			}
			return "a late result";
		});
		fixture.startRuntime(SETTINGS, listener);
		long id = fixture.queue().enqueue("long", new Greeting("Ada", 1));
		assertThat(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

		long cancelledAt = System.nanoTime();
		assertThat(fixture.queue().cancel(id)).isTrue();

		await().atMost(WAIT).until(() -> listener.count(Outcome.CANCELLED) == 1);
		assertThat(sawCancelled).isTrue();
		// One heartbeat interval, and the time its statement and the interrupt take.
		assertThat(Duration.ofNanos(interruptedAt.get() - cancelledAt)).isLessThan(HEARTBEAT.plusMillis(500));
		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.cancelled);
		assertThat(job.result()).isNull();
		assertThat(job.errors()).isEmpty();
		assertThat(listener.count(Outcome.SUCCEEDED)).isZero();
	}

	@Test
	void aHandlerThatIgnoresTheCancelAndFailsLateLeavesTheJobCancelledWithoutAnError() throws InterruptedException {
		CountDownLatch started = new CountDownLatch(1);
		fixture.handle("stubborn", Greeting.class, (greeting, context) -> {
			started.countDown();
			TimeoutContractTest.awaitIgnoringInterrupts(letGo);
			throw new IllegalStateException("failed after the cancel");
		});
		fixture.startRuntime(SETTINGS, listener);
		long id = fixture.queue().enqueue("stubborn", new Greeting("Ada", 1));
		assertThat(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

		assertThat(fixture.queue().cancel(id)).isTrue();
		Thread.sleep(HEARTBEAT.multipliedBy(2).toMillis());
		letGo.countDown();

		await().atMost(WAIT).until(() -> listener.count(Outcome.CANCELLED) == 1);
		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.cancelled);
		assertThat(job.errors()).isEmpty();
		assertThat(job.lastError()).isNull();
		assertThat(listener.count(Outcome.RETRIED)).isZero();
		assertThat(fixture.queue().cancel(id)).isFalse();
	}

	@Test
	void aHandlerThatCancelsItsJobEndsItCancelledWithItsReasonAndNeverRunsItAgain() {
		fixture.handle("withdrawn", Greeting.class, (greeting, context) -> {
			calls.add(System.nanoTime());
			throw new CancelJobException("the order was withdrawn");
		});
		fixture.startRuntime(SETTINGS, listener);

		long id = fixture.queue().enqueue("withdrawn", new Greeting("Ada", 1));

		awaitState(id, JobState.cancelled);
		await().atMost(WAIT).until(() -> listener.count(Outcome.CANCELLED) == 1);
		Job job = fixture.job(id);
		assertThat(job.attempt()).isEqualTo(1);
		assertThat(job.maxAttempts()).isGreaterThan(1);
		assertThat(job.lastError()).contains("CancelJobException: the order was withdrawn");
		assertThat(job.errors()).singleElement()
			.satisfies(error -> assertThat(error.message()).contains("the order was withdrawn"));
		assertThat(job.finishedAt()).isNotNull();
		assertThat(calls).hasSize(1);
		assertThat(listener.count(Outcome.RETRIED)).isZero();
		assertThat(listener.count(Outcome.DEAD)).isZero();
		assertThat(fixture.queue().cancel(id)).isFalse();
	}

	@Test
	void aJobItsHandlerCancelledLetsItsKeysNextJobStart() {
		fixture.handle("per-tenant", Greeting.class, (greeting, context) -> {
			if (greeting.name().equals("first")) {
				throw new IllegalStateException("wrapped", new CancelJobException("the tenant left"));
			}
			return greeting.name();
		});
		fixture.startRuntime(SETTINGS, listener);
		EnqueueOptions tenant = EnqueueOptions.defaults().concurrencyKey("tenant-1");

		long first = fixture.queue().enqueue("per-tenant", new Greeting("first", 1), tenant);
		long second = fixture.queue().enqueue("per-tenant", new Greeting("second", 1), tenant);

		awaitState(second, JobState.succeeded);
		assertThat(fixture.job(first).state()).isEqualTo(JobState.cancelled);
		assertThat(fixture.job(first).lastError()).contains("the tenant left");
		assertThat(fixture.job(second).result()).isEqualTo("\"second\"");
	}

	@Test
	void aCancelTheHandlerAskedForStandsWhenItCatchesTheExceptionAndReturns() {
		fixture.handle("second-thoughts", Greeting.class, (greeting, context) -> {
			calls.add(System.nanoTime());
			try {
				context.cancel("the customer closed the account");
			}
			catch (CancelJobException ex) {
				// A catch-all in the handler's own code: the cancel was asked for and stands.
			}
			return "done anyway";
		});
		fixture.startRuntime(SETTINGS, listener);

		long id = fixture.queue().enqueue("second-thoughts", new Greeting("Ada", 1));

		awaitState(id, JobState.cancelled);
		await().atMost(WAIT).until(() -> listener.count(Outcome.CANCELLED) == 1);
		Job job = fixture.job(id);
		assertThat(job.result()).isNull();
		assertThat(job.lastError()).contains("CancelJobException: the customer closed the account");
		assertThat(calls).hasSize(1);
		assertThat(listener.count(Outcome.SUCCEEDED)).isZero();
	}

	@Test
	void aTransactionalHandlerThatCancelsItsJobRollsItsWritesBack() {
		fixture.jdbc().sql("CREATE TABLE IF NOT EXISTS test_cancel_writes (job_id bigint PRIMARY KEY)").update();
		fixture.jdbc().sql("DELETE FROM test_cancel_writes").update();
		fixture.handle("refund", Greeting.class, null, true, (greeting, context) -> {
			fixture.jdbc().sql("INSERT INTO test_cancel_writes (job_id) VALUES (:id)").param("id", context.jobId())
				.update();
			context.cancel("refunded by hand meanwhile");
			return "unreachable";
		});
		fixture.startRuntime(SETTINGS, listener);

		long id = fixture.queue().enqueue("refund", new Greeting("Ada", 1));

		awaitState(id, JobState.cancelled);
		assertThat(fixture.job(id).lastError()).contains("refunded by hand meanwhile");
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM test_cancel_writes").query(Long.class).single()).isZero();
	}

	@Test
	void aCancelWithoutAReasonIsRefusedAndFailsTheAttemptLikeAnyOtherError() {
		fixture.handle("no-reason", Greeting.class, (greeting, context) -> {
			context.cancel(" ");
			return "unreachable";
		});
		fixture.startRuntime(SETTINGS, listener);

		long id = fixture.queue().enqueue("no-reason", new Greeting("Ada", 1),
				EnqueueOptions.defaults().maxAttempts(1));

		awaitState(id, JobState.dead);
		assertThat(fixture.job(id).lastError()).contains("IllegalArgumentException: a cancel needs a reason");
	}

	private int snoozes(long id) {
		return fixture.jdbc().sql("SELECT snoozes FROM jobqueue_job WHERE id = :id").param("id", id)
			.query(Integer.class).single();
	}

	private void awaitState(long id, JobState state) {
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(state));
	}
}
