package dev.jobqueue.contract;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobListener.Outcome;
import dev.jobqueue.JobState;
import dev.jobqueue.NonRetryableException;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.runtime.JobDrainer;
import dev.jobqueue.runtime.JobDrainer.Ran;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A drain (the queue-test module's) on every database: due jobs run on the calling thread through the
 * runtime's claim, runner and outcome writes, their outcomes written before it returns; jobs the handlers
 * enqueue run too; retries wait for their backoff, and a limit ends a drain that would never end.
 */
public abstract class DrainContractTest {

	private static final RetryPolicy TWO_ATTEMPTS = new RetryPolicy(2, Duration.ofMinutes(5), Duration.ofMinutes(5),
			1.0, 0.0);

	private QueueFixture fixture;

	private JobDrainer drainer;

	private final List<String> threads = new CopyOnWriteArrayList<>();

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		drainer = new JobDrainer(fixture.store(), fixture.handlers(), QueueFixture.JSON, QueueFixture.SETTINGS,
				new CountingListener(), fixture.transactions());
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@Test
	void aDrainRunsEveryDueJobOnTheCallingThreadAndHasWrittenTheOutcomesWhenItReturns() {
		fixture.handle("greet", Greeting.class, (greeting, context) -> {
			threads.add(Thread.currentThread().getName());
			return "hello " + greeting.name();
		});
		long first = fixture.queue().enqueue("greet", new Greeting("ada", 1));
		long second = fixture.queue().enqueue("greet", new Greeting("alan", 2),
				EnqueueOptions.defaults().queue("other"));
		long later = fixture.queue().enqueue("greet", new Greeting("grace", 3),
				EnqueueOptions.defaults().delay(Duration.ofHours(1)));

		List<Ran> ran = drainer.drain(100);

		assertThat(ran).extracting(Ran::id).containsExactlyInAnyOrder(first, second);
		assertThat(ran).extracting(Ran::outcome).containsOnly(Outcome.SUCCEEDED);
		assertThat(ran).extracting(Ran::error).containsOnlyNulls();
		assertThat(threads).containsOnly(Thread.currentThread().getName());
		assertThat(fixture.state(first)).isEqualTo(JobState.succeeded);
		assertThat(fixture.job(second).result()).contains("hello alan");
		assertThat(fixture.state(later)).isEqualTo(JobState.ready);
	}

	@Test
	void theJobIsInTheMdcWhileItsHandlerRunsAndGoneOnceItEnded() {
		List<String> seen = new CopyOnWriteArrayList<>();
		fixture.handle("greet", Greeting.class, (greeting, context) -> {
			seen.addAll(List.of(MDC.get("jobqueue.job.id"), MDC.get("jobqueue.job.kind"),
					MDC.get("jobqueue.job.attempt")));
			return null;
		});
		long id = fixture.queue().enqueue("greet", new Greeting("ada", 1));

		drainer.drain(100);

		assertThat(seen).containsExactly(Long.toString(id), "greet", "1");
		assertThat(MDC.get("jobqueue.job.id")).isNull();
		assertThat(MDC.get("jobqueue.job.kind")).isNull();
		assertThat(MDC.get("jobqueue.job.attempt")).isNull();
	}

	@Test
	void jobsThatHandlersEnqueueWhileDrainingRunInTheSameDrain() {
		fixture.handle("countdown", Greeting.class, (greeting, context) -> {
			if (greeting.count() > 0) {
				fixture.queue().enqueue("countdown", new Greeting(greeting.name(), greeting.count() - 1));
			}
			return greeting.count();
		});
		fixture.queue().enqueue("countdown", new Greeting("launch", 3));

		List<Ran> ran = drainer.drain(100);

		assertThat(ran).hasSize(4).extracting(Ran::kind).containsOnly("countdown");
		assertThat(fixture.counts().get("default")).containsEntry(JobState.succeeded, 4L);
	}

	@Test
	void aFailedAttemptIsRetriedAfterItsBackoffAndTheLastOneIsDeadWithItsError() {
		fixture.handle("flaky", Greeting.class, TWO_ATTEMPTS, false, (greeting, context) -> {
			throw new IllegalStateException("mail server busy on attempt " + context.attempt());
		});
		long id = fixture.queue().enqueue("flaky", new Greeting("ada", 1));

		List<Ran> first = drainer.drain(100);
		List<Ran> beforeBackoff = drainer.drain(100);
		fixture.testHooks().bringReadyForward(Duration.ofMinutes(5));
		List<Ran> second = drainer.drain(100);

		assertThat(first).singleElement().satisfies(ran -> {
			assertThat(ran.outcome()).isEqualTo(Outcome.RETRIED);
			assertThat(ran.attempt()).isEqualTo(1);
			assertThat(ran.error()).contains("mail server busy on attempt 1");
		});
		assertThat(beforeBackoff).isEmpty();
		assertThat(second).singleElement().satisfies(ran -> {
			assertThat(ran.outcome()).isEqualTo(Outcome.DEAD);
			assertThat(ran.error()).contains("mail server busy on attempt 2");
		});
		assertThat(fixture.job(id).errors()).hasSize(2);
	}

	@Test
	void aNonRetryableFailureIsDeadAtOnce() {
		fixture.handle("refuse", Greeting.class, (greeting, context) -> {
			throw new NonRetryableException("no such mailbox");
		});
		long id = fixture.queue().enqueue("refuse", new Greeting("nobody", 1));

		assertThat(drainer.drain(100)).extracting(Ran::outcome).containsExactly(Outcome.DEAD);
		assertThat(fixture.state(id)).isEqualTo(JobState.dead);
	}

	@Test
	void aDrainEndsAtItsLimitWhenHandlersKeepEnqueueing() {
		fixture.handle("forever", Greeting.class, (greeting, context) -> {
			fixture.queue().enqueue("forever", greeting);
			return null;
		});
		fixture.queue().enqueue("forever", new Greeting("again", 1));

		assertThat(drainer.drain(25)).hasSize(25);
		assertThat(fixture.counts().get("default")).containsEntry(JobState.succeeded, 25L)
			.containsEntry(JobState.ready, 1L);
	}

	@Test
	void aDrainInsideATransactionRunsItsUncommittedJobsAndRollsBackWithIt() {
		fixture.handle("greet", Greeting.class, (greeting, context) -> greeting.name());
		fixture.handle("tx-greet", Greeting.class, null, true, (greeting, context) -> greeting.name());

		List<Ran> ran = fixture.transactions().execute(status -> {
			fixture.queue().enqueue("greet", new Greeting("inside", 1));
			fixture.queue().enqueue("tx-greet", new Greeting("inside", 2));
			List<Ran> inside = drainer.drain(100);
			status.setRollbackOnly();
			return inside;
		});

		assertThat(ran).extracting(Ran::outcome).containsExactly(Outcome.SUCCEEDED, Outcome.SUCCEEDED);
		assertThat(fixture.counts()).isEmpty();
	}
}
