package dev.jobqueue.contract;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import ch.qos.logback.classic.Level;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobListener.Outcome;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.NonRetryableException;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.LogCapture;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What running jobs promises, end to end through a runtime, on every database. */
public abstract class ExecutionContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.jdbc().sql("CREATE TABLE IF NOT EXISTS test_business (job_id bigint PRIMARY KEY, note text)").update();
		fixture.jdbc().sql("DELETE FROM test_business").update();
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	private void awaitState(long id, JobState state) {
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(state));
	}

	@Test
	void aClaimIsConfirmedBeforeItsHandlerStarts() {
		// The reaper counts the attempt of a confirmed claim only: a job that brings its worker down as soon
		// as its handler starts must still use an attempt per run, so the confirmation comes first.
		fixture.handle("greet", Greeting.class, (greeting, context) -> fixture.jdbc()
			.sql("SELECT CASE WHEN claim_confirmed THEN 1 ELSE 0 END FROM jobqueue_job WHERE id = :id")
			.param("id", context.jobId())
			.query(Integer.class)
			.single());
		fixture.startRuntime();

		List<Long> ids = fixture.queue().enqueueAll(IntStream.range(0, 20)
			.mapToObj(i -> new NewJobRequest("greet", new Greeting("Ada", i)))
			.toList());

		ids.forEach(id -> awaitState(id, JobState.succeeded));
		assertThat(ids).allSatisfy(id -> assertThat(fixture.job(id).result()).as("job %d", id).isEqualTo("1"));
	}

	@Test
	void aHandlerRunsWithItsPayloadAndItsResultIsStored() {
		fixture.handle("greet", Greeting.class,
				(greeting, context) -> "hello " + greeting.name() + " x" + greeting.count());
		fixture.startRuntime();

		long id = fixture.queue().enqueue("greet", new Greeting("Ada", 3));

		awaitState(id, JobState.succeeded);
		Job job = fixture.job(id);
		assertThat(job.result()).isEqualTo("\"hello Ada x3\"");
		assertThat(job.attempt()).isEqualTo(1);
		assertThat(job.lastError()).isNull();
	}

	@Test
	void aFailingJobIsRetriedWithBackoffThenDeadWithItsErrorReadable() {
		AtomicInteger calls = new AtomicInteger();
		fixture.handle("flaky", Greeting.class, (greeting, context) -> {
			calls.incrementAndGet();
			throw new IllegalStateException("mail server said no to " + greeting.name());
		});
		CountingListener listener = new CountingListener();
		fixture.startRuntime(QueueFixture.SETTINGS, listener);

		long id = fixture.queue().enqueue("flaky", new Greeting("Ada", 1));

		awaitState(id, JobState.dead);
		Job job = fixture.job(id);
		assertThat(job.attempt()).isEqualTo(3);
		assertThat(calls).hasValue(3);
		assertThat(job.lastError()).contains("IllegalStateException: mail server said no to Ada")
			.contains("at dev.jobqueue");
		assertThat(listener.count(Outcome.RETRIED)).isEqualTo(2);
		assertThat(listener.count(Outcome.DEAD)).isEqualTo(1);
	}

	@Test
	void aJobThatSucceedsOnRetryEndsSucceeded() {
		AtomicInteger calls = new AtomicInteger();
		fixture.handle("second-time-lucky", Greeting.class, (greeting, context) -> {
			if (calls.incrementAndGet() == 1) {
				throw new IllegalStateException("first time unlucky");
			}
			return context.attempt();
		});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("second-time-lucky", new Greeting("Ada", 1));

		awaitState(id, JobState.succeeded);
		assertThat(fixture.job(id).result()).isEqualTo("2");
		assertThat(fixture.job(id).lastError()).isNull();
		assertThat(fixture.job(id).errors()).singleElement()
			.satisfies(entry -> assertThat(entry.message()).contains("first time unlucky"));
	}

	@Test
	void aNonRetryableFailureIsDeadOnTheFirstAttempt() {
		fixture.handle("refuse", Greeting.class, (greeting, context) -> {
			throw new NonRetryableException("address is malformed");
		});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("refuse", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(10));

		awaitState(id, JobState.dead);
		assertThat(fixture.job(id).attempt()).isEqualTo(1);
		assertThat(fixture.job(id).lastError()).contains("address is malformed");
	}

	@Test
	void aHandlersOwnRetryPolicyDecidesItsAttempts() {
		fixture.handle("once", Greeting.class, new RetryPolicy(1, Duration.ofMillis(10), Duration.ofMillis(10), 1, 0),
				false, (greeting, context) -> {
					throw new IllegalStateException("no");
				});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("once", new Greeting("Ada", 1));

		assertThat(fixture.job(id).maxAttempts()).isEqualTo(1);
		awaitState(id, JobState.dead);
	}

	@Test
	void aTransactionalHandlersWritesCommitWithTheCompletion() {
		fixture.handle("book", Greeting.class, null, true, (greeting, context) -> insertBusinessRow(context.jobId()));
		fixture.startRuntime();

		long id = fixture.queue().enqueue("book", new Greeting("Ada", 1));

		awaitState(id, JobState.succeeded);
		assertThat(businessRows()).isEqualTo(1);
	}

	@Test
	void aTransactionalHandlerThatThrowsLeavesNeitherItsWritesNorACompletion() {
		fixture.handle("book", Greeting.class, null, true, (greeting, context) -> {
			insertBusinessRow(context.jobId());
			throw new NonRetryableException("card declined");
		});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("book", new Greeting("Ada", 1));

		awaitState(id, JobState.dead);
		assertThat(businessRows()).isZero();
	}

	@Test
	void aTransactionalHandlerWhoseLeaseWasTakenOverCommitsNothing() {
		CountingListener listener = new CountingListener();
		fixture.handle("book", Greeting.class, null, true, (greeting, context) -> {
			takeOver(context.jobId());
			return insertBusinessRow(context.jobId());
		});
		fixture.startRuntime(QueueFixture.SETTINGS, listener);

		long id = fixture.queue().enqueue("book", new Greeting("Ada", 1));

		await().atMost(WAIT).until(() -> listener.count(Outcome.LEASE_LOST) == 1);
		assertThat(businessRows()).isZero();
		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.running);
		assertThat(job.leaseOwner()).isEqualTo("thief");
	}

	@Test
	void aWorkerWhoseJobWasTakenOverWritesNothingAndSaysSo() {
		CountingListener listener = new CountingListener();
		fixture.handle("greet", Greeting.class, (greeting, context) -> {
			takeOver(context.jobId());
			return "stale result";
		});
		fixture.startRuntime(QueueFixture.SETTINGS, listener);

		try (LogCapture log = new LogCapture()) {
			long id = fixture.queue().enqueue("greet", new Greeting("Ada", 1));

			await().atMost(WAIT).until(() -> listener.count(Outcome.LEASE_LOST) == 1);
			Job job = fixture.job(id);
			assertThat(job.state()).isEqualTo(JobState.running);
			assertThat(job.leaseOwner()).isEqualTo("thief");
			assertThat(job.result()).isNull();
			assertThat(log.messagesAtLeast(Level.WARN)).anySatisfy(line -> assertThat(line).contains("Job " + id)
				.contains("lease").contains("lost"));
		}
	}

	@Test
	void aHandlerIsInterruptedWhenTheHeartbeatFindsItsLeaseLost() throws InterruptedException {
		CountDownLatch started = new CountDownLatch(1);
		AtomicBoolean interrupted = new AtomicBoolean();
		AtomicBoolean leaseHeldAfter = new AtomicBoolean(true);
		fixture.handle("slow", Greeting.class, (greeting, context) -> {
			started.countDown();
			try {
				Thread.sleep(WAIT.toMillis());
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
				leaseHeldAfter.set(context.isLeaseHeld());
			}
			return null;
		});
		fixture.startRuntime();
		long id = fixture.queue().enqueue("slow", new Greeting("Ada", 1));
		assertThat(started.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

		takeOver(id);

		await().atMost(WAIT).untilTrue(interrupted);
		assertThat(leaseHeldAfter).isFalse();
		assertThat(fixture.job(id).leaseOwner()).isEqualTo("thief");
	}

	@Test
	void aHandlerThatReturnsOnAnInterruptedThreadStillHasItsCompletionWritten() {
		AtomicInteger calls = new AtomicInteger();
		fixture.handle("interrupted", Greeting.class, (greeting, context) -> {
			calls.incrementAndGet();
			// As a heartbeat or a stop would, just as the handler returns.
			Thread.currentThread().interrupt();
			return "done";
		});
		// A lease far longer than the wait: only the handler's own completion can finish the job.
		fixture.startRuntime(QueueFixture.SETTINGS.toBuilder()
				.lease(Duration.ofMinutes(5))
				.heartbeatInterval(Duration.ofSeconds(1))
				.build(),
				new CountingListener());

		long id = fixture.queue().enqueue("interrupted", new Greeting("Ada", 1));

		awaitState(id, JobState.succeeded);
		assertThat(fixture.job(id).result()).isEqualTo("\"done\"");
		assertThat(fixture.job(id).attempt()).isEqualTo(1);
		assertThat(calls).hasValue(1);
	}

	@Test
	void aStopWaitsForRunningJobsThatFinishWithinTheTimeout() {
		CountDownLatch started = new CountDownLatch(1);
		fixture.handle("short", Greeting.class, (greeting, context) -> {
			started.countDown();
			Thread.sleep(500);
			return "finished";
		});
		var runtime = fixture.startRuntime();
		long id = fixture.queue().enqueue("short", new Greeting("Ada", 1));
		await().atMost(WAIT).until(() -> started.getCount() == 0);

		runtime.stop();

		assertThat(fixture.state(id)).isEqualTo(JobState.succeeded);
	}

	@Test
	void aStopReleasesJobsStillRunningAfterTheTimeoutAndAnotherNodeStartsThemAtOnce() {
		AtomicInteger executions = new AtomicInteger();
		CountDownLatch firstStarted = new CountDownLatch(1);
		fixture.handle("long", Greeting.class, (greeting, context) -> {
			if (executions.incrementAndGet() == 1) {
				firstStarted.countDown();
				Thread.sleep(WAIT.toMillis());
			}
			return context.attempt();
		});
		var leaving = fixture.startRuntime(QueueFixture.SETTINGS.toBuilder().shutdownTimeout(Duration.ofMillis(200))
			.lease(Duration.ofMinutes(5)).heartbeatInterval(Duration.ofSeconds(1)).build(), new CountingListener());
		long id = fixture.queue().enqueue("long", new Greeting("Ada", 1));
		await().atMost(WAIT).until(() -> firstStarted.getCount() == 0);
		fixture.startRuntime();

		long stoppedAt = System.nanoTime();
		leaving.stop();

		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(JobState.succeeded));
		Duration untilDone = Duration.ofNanos(System.nanoTime() - stoppedAt);
		assertThat(untilDone).isLessThan(Duration.ofSeconds(5));
		assertThat(fixture.job(id).result()).isEqualTo("1");
	}

	private Object insertBusinessRow(long jobId) {
		return fixture.jdbc()
			.sql("INSERT INTO test_business (job_id, note) VALUES (:id, 'booked')")
			.param("id", jobId)
			.update();
	}

	private long businessRows() {
		return fixture.jdbc().sql("SELECT count(*) FROM test_business").query(Long.class).single();
	}

	/** Another worker takes the job over, committed on a connection of its own. */
	private void takeOver(long jobId) {
		TransactionTemplate separate = fixture.transactions();
		separate.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		separate.executeWithoutResult(status -> fixture.jdbc()
			.sql("UPDATE jobqueue_job SET lease_token = lease_token + 1, lease_owner = 'thief' WHERE id = :id")
			.param("id", jobId)
			.update());
	}
}
