package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import ch.qos.logback.classic.Level;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.LogCapture;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/** Many runtimes, many threads, one table: every job runs exactly once, with no lock errors. */
public abstract class ContentionContractTest {

	private static final int JOBS = 20_000;

	private static final int RUNTIMES = 4;

	private static final int THREADS = 8;

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
	void fourRuntimesOfEightThreadsDrainTwentyThousandJobsEachExactlyOnce() {
		Map<Long, AtomicInteger> executions = new ConcurrentHashMap<>();
		fixture.handle("count", Greeting.class, (greeting, context) -> {
			executions.computeIfAbsent(context.jobId(), id -> new AtomicInteger()).incrementAndGet();
			return null;
		});
		for (int from = 0; from < JOBS; from += 1000) {
			fixture.queue().enqueueAll(IntStream.range(from, from + 1000)
				.mapToObj(i -> new NewJobRequest("count", new Greeting("job", i)))
				.toList());
		}
		RuntimeSettings settings = QueueFixture.SETTINGS.toBuilder()
				.queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, THREADS))
				.build();

		try (LogCapture log = new LogCapture()) {
			IntStream.range(0, RUNTIMES).forEach(i -> fixture.startRuntime(settings, new CountingListener()));
			await().atMost(Duration.ofMinutes(3))
				.pollInterval(Duration.ofMillis(250))
				.until(() -> succeeded() == JOBS);

			assertThat(executions).hasSize(JOBS);
			assertThat(executions.values()).allSatisfy(count -> assertThat(count).hasValue(1));
			List<String> problems = log.messagesAtLeast(Level.WARN);
			assertThat(problems).isEmpty();
		}
	}

	@Test
	void aRuntimeNeverHoldsMoreJobsThanItsQueueHasThreads() throws InterruptedException {
		AtomicInteger finished = new AtomicInteger();
		// Transactional, so each completion commits before its thread frees up: a running row is then a job
		// claimed and not yet done, and a job claimed beyond the free threads would show as one more.
		fixture.handle("slow", Greeting.class, null, true, (greeting, context) -> {
			Thread.sleep(5);
			finished.incrementAndGet();
			return null;
		});
		fixture.queue().enqueueAll(IntStream.range(0, 400)
			.mapToObj(i -> new NewJobRequest("slow", new Greeting("job", i)))
			.toList());
		fixture.startRuntime(QueueFixture.SETTINGS.toBuilder().queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, 4)).build(),
				new CountingListener());

		long mostRunning = 0;
		long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
		while (finished.get() < 400 && System.nanoTime() < deadline) {
			mostRunning = Math.max(mostRunning, running());
			Thread.sleep(1);
		}
		assertThat(finished).hasValue(400);
		assertThat(mostRunning).isBetween(1L, 4L);
	}

	private long running() {
		return fixture.counts().getOrDefault(RuntimeSettings.DEFAULT_QUEUE, Map.of()).getOrDefault(JobState.running,
				0L);
	}

	/** Exact, by SQL of its own: the store's counts stop at JobCounts.FINISHED_CAP for finished states. */
	private long succeeded() {
		return JdbcClient.create(database().dataSource())
			.sql("SELECT count(*) FROM jobqueue_job WHERE queue = 'default' AND state = 'succeeded'")
			.query(Long.class)
			.single();
	}
}
