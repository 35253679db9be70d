package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobHandlerFunction;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobHandlerDefinition.KeyLimits;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * A cancelled job of a concurrency key keeps its slot while its handler still runs: "at most the key's limit at
 * once" holds for handlers, not only for rows. The key's next job starts once the cancelled handler exited.
 */
public abstract class CancelHoldsSlotContractTest {

	private static final Duration WAIT = Duration.ofSeconds(30);

	/** How long the cancelled handler goes on after its interrupt, as work that does not answer it does. */
	private static final Duration STUBBORN = Duration.ofMillis(1500);

	private static final RuntimeSettings SETTINGS = QueueFixture.SETTINGS.toBuilder()
		.heartbeatInterval(Duration.ofMillis(200))
		.build();

	private final AtomicLong firstEnded = new AtomicLong();

	private final AtomicLong secondStarted = new AtomicLong();

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
	void theKeysNextJobStartsOnlyAfterTheCancelledHandlerExited() throws InterruptedException {
		CountDownLatch firstStarted = handleTheFirstDeafToInterruptsFor(STUBBORN.multipliedBy(2));
		EnqueueOptions ordered = EnqueueOptions.defaults().concurrencyKey("account-7");
		long first = fixture.queue().enqueue("ordered", new Greeting("first", 1), ordered);
		long second = fixture.queue().enqueue("ordered", new Greeting("second", 2), ordered);
		fixture.startRuntime(SETTINGS.toBuilder().queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, 2)).build(),
				new CountingListener());
		assertThat(firstStarted.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		Thread.sleep(STUBBORN.toMillis() / 3);

		assertThat(fixture.queue().cancel(first)).isTrue();

		await().atMost(WAIT).until(() -> firstEnded.get() != 0 && fixture.state(second) == JobState.succeeded);
		assertThat(fixture.state(first)).isEqualTo(JobState.cancelled);
		assertTheSecondStartedAfterTheFirstEnded();
	}

	@Test
	void aCancelledHandlerThatRunsPastItsLeaseKeepsTheSlotWhileItsNodeHeartbeats() throws InterruptedException {
		Duration lease = Duration.ofSeconds(1);
		CountDownLatch firstStarted = handleTheFirstDeafToInterruptsFor(lease.multipliedBy(4));
		EnqueueOptions ordered = EnqueueOptions.defaults().concurrencyKey("account-8");
		long first = fixture.queue().enqueue("ordered", new Greeting("first", 1), ordered);
		long second = fixture.queue().enqueue("ordered", new Greeting("second", 2), ordered);
		fixture.startRuntime(SETTINGS.toBuilder().lease(lease).queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, 2)).build(),
				new CountingListener());
		assertThat(firstStarted.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

		assertThat(fixture.queue().cancel(first)).isTrue();

		await().atMost(WAIT).until(() -> firstEnded.get() != 0 && fixture.state(second) == JobState.succeeded);
		assertTheSecondStartedAfterTheFirstEnded();
	}

	/**
	 * Handles job 1 as work that goes on for {@code duration} whatever interrupts it meets, and the others at once;
	 * returns what counts down as job 1 starts.
	 */
	private CountDownLatch handleTheFirstDeafToInterruptsFor(Duration duration) {
		CountDownLatch firstStarted = new CountDownLatch(1);
		handle((greeting, context) -> {
			if (greeting.count() == 1) {
				firstStarted.countDown();
				runIgnoringInterrupts(duration);
				firstEnded.set(System.nanoTime());
			}
			else {
				secondStarted.set(System.nanoTime());
			}
			return null;
		});
		return firstStarted;
	}

	private void assertTheSecondStartedAfterTheFirstEnded() {
		long overlapMillis = Duration.ofNanos(firstEnded.get() - secondStarted.get()).toMillis();
		assertThat(secondStarted.get() - firstEnded.get())
			.as("the second job started %d ms before the cancelled handler exited", overlapMillis)
			.isPositive();
	}

	@SuppressWarnings("unchecked")
	private void handle(JobHandlerFunction<Greeting> function) {
		fixture.handle(new JobHandlerDefinition("ordered", RuntimeSettings.DEFAULT_QUEUE, Greeting.class,
				QueueFixture.SETTINGS.retryPolicy(), false, (JobHandlerFunction<Object>) (JobHandlerFunction<?>) function,
				"test handler of ordered", null, 1, false, KeyLimits.DEFAULTS));
	}

	/** Work that goes on for {@code duration} whatever interrupts it meets, and keeps the interrupt for its caller. */
	private static void runIgnoringInterrupts(Duration duration) {
		long until = System.nanoTime() + duration.toNanos();
		boolean interrupted = false;
		while (System.nanoTime() < until) {
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}
}
