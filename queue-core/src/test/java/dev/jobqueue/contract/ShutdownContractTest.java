package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * A graceful stop hands a job to other nodes only once its handler has exited here, and gives a job's
 * attempt back only once, so that a handler interrupted at every deploy still reaches dead.
 */
public abstract class ShutdownContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final CountDownLatch letGo = new CountDownLatch(1);

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
		letGo.countDown();
		fixture.close();
	}

	@Test
	void aStopKeepsTheLeaseOfAHandlerThatIgnoresItsInterruptUntilItExitsAndNeverHandsItOver() {
		CountDownLatch started = new CountDownLatch(1);
		AtomicInteger calls = new AtomicInteger();
		fixture.handle("stubborn", Greeting.class, (greeting, context) -> {
			mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
			calls.incrementAndGet();
			started.countDown();
			TimeoutContractTest.awaitIgnoringInterrupts(letGo);
			running.decrementAndGet();
			return context.attempt();
		});
		RuntimeSettings quickStop = QueueFixture.SETTINGS.toBuilder().shutdownTimeout(Duration.ofMillis(100))
			.shutdownGrace(Duration.ofMillis(100))
			.lease(Duration.ofSeconds(2)).heartbeatInterval(Duration.ofMillis(300)).build();
		JobRuntime leaving = fixture.startRuntime(quickStop, new CountingListener());
		long id = fixture.queue().enqueue("stubborn", new Greeting("Ada", 1));
		await().atMost(WAIT).until(() -> started.getCount() == 0);
		fixture.startRuntime();

		leaving.stop();
		Instant leaseAtStop = fixture.job(id).leaseExpiresAt();

		assertHeldBy(id, leaving);
		// Past the lease as it stood when the stop returned: only heartbeats after the stop keep it.
		await().atMost(WAIT).until(() -> Instant.now().isAfter(leaseAtStop.plusMillis(500)));
		assertHeldBy(id, leaving);
		letGo.countDown();
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(JobState.succeeded));
		assertThat(fixture.job(id).result()).isEqualTo("1");
		assertThat(calls).hasValue(1);
		assertThat(mostAtOnce).hasValue(1);
	}

	@Test
	void aJobInterruptedAtEveryStopGetsItsAttemptBackOnlyOnceAndReachesDead() throws InterruptedException {
		Semaphore started = new Semaphore(0);
		fixture.handle("long", Greeting.class, (greeting, context) -> {
			started.release();
			Thread.sleep(WAIT.multipliedBy(3).toMillis());
			return null;
		});
		long id = fixture.queue().enqueue("long", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(2));
		RuntimeSettings quickStop = QueueFixture.SETTINGS.toBuilder().shutdownTimeout(Duration.ofMillis(50))
			.shutdownGrace(WAIT).build();

		int[] attemptsAfterEachStop = new int[3];
		for (int deploy = 0; deploy < 3; deploy++) {
			JobRuntime runtime = fixture.startRuntime(quickStop, new CountingListener());
			assertThat(started.tryAcquire(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
			runtime.stop();
			attemptsAfterEachStop[deploy] = fixture.job(id).attempt();
		}

		Job job = fixture.job(id);
		assertThat(attemptsAfterEachStop).containsExactly(0, 1, 2);
		assertThat(job.state()).isEqualTo(JobState.dead);
		assertThat(job.lastError()).contains("interrupted by a shutdown");
	}

	private void assertHeldBy(long id, JobRuntime runtime) {
		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.running);
		assertThat(job.leaseOwner()).isEqualTo(runtime.owner());
		assertThat(job.attempt()).isEqualTo(1);
	}
}
