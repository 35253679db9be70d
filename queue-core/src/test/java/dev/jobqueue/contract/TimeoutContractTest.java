package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/** Execution timeouts: a handler's own, or the runtime's default, on every database. */
public abstract class TimeoutContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final Duration TIMEOUT = Duration.ofMillis(300);

	private final CountDownLatch letGo = new CountDownLatch(1);

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
	void aHandlerPastItsTimeoutIsInterruptedAndItsAttemptFailsSayingWhereItWas() {
		fixture.handle("slow", Greeting.class, TIMEOUT, (greeting, context) -> {
			if (context.attempt() == 1) {
				Thread.sleep(WAIT.multipliedBy(3).toMillis());
			}
			return context.attempt();
		});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("slow", new Greeting("Ada", 1));

		awaitSucceeded(id);
		Job job = fixture.job(id);
		assertThat(job.result()).isEqualTo("2");
		assertThat(job.lastError()).isNull();
		assertThat(job.errors()).singleElement()
			.satisfies(entry -> assertThat(entry.message()).contains("timed out after PT0.3S").contains("Thread.sleep"));
	}

	@Test
	void aHandlerWithoutATimeoutOfItsOwnTakesTheRuntimesDefault() {
		fixture.handle("slow", Greeting.class, (greeting, context) -> {
			if (context.attempt() == 1) {
				Thread.sleep(WAIT.multipliedBy(3).toMillis());
			}
			return context.attempt();
		});
		fixture.startRuntime(QueueFixture.SETTINGS.toBuilder().defaultTimeout(TIMEOUT).build(), new CountingListener());

		long id = fixture.queue().enqueue("slow", new Greeting("Ada", 1));

		awaitSucceeded(id);
		assertThat(fixture.job(id).result()).isEqualTo("2");
		assertThat(fixture.job(id).errors()).singleElement()
			.satisfies(entry -> assertThat(entry.message()).contains("timed out after PT0.3S"));
	}

	@Test
	void aHandlerThatIgnoresItsTimeoutKeepsItsThreadButLosesItsLeaseAndTheJobRunsAgain() {
		AtomicBoolean firstStillRunning = new AtomicBoolean();
		AtomicInteger calls = new AtomicInteger();
		fixture.handle("stubborn", Greeting.class, TIMEOUT, (greeting, context) -> {
			if (calls.incrementAndGet() == 1) {
				firstStillRunning.set(true);
				awaitIgnoringInterrupts(letGo);
				firstStillRunning.set(false);
				return "first";
			}
			return firstStillRunning.get() ? "again while the first still ran" : "again";
		});
		RuntimeSettings settings = QueueFixture.SETTINGS.toBuilder()
				.lease(Duration.ofSeconds(2))
				.heartbeatInterval(Duration.ofMillis(300))
				.build();
		fixture.startRuntime(settings, new CountingListener());
		fixture.startRuntime(settings, new CountingListener());

		long id = fixture.queue().enqueue("stubborn", new Greeting("Ada", 1));

		awaitSucceeded(id);
		assertThat(fixture.job(id).result()).isEqualTo("\"again while the first still ran\"");
		assertThat(fixture.job(id).attempt()).isEqualTo(2);
	}

	private void awaitSucceeded(long id) {
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(JobState.succeeded));
	}

	/** A handler that never looks at interrupts: it finishes its work regardless. */
	static void awaitIgnoringInterrupts(CountDownLatch latch) {
		boolean interrupted = false;
		while (latch.getCount() > 0) {
			try {
				latch.await();
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
