package dev.jobqueue.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.PostgresQueueFixture;
import dev.jobqueue.support.QueueFixture;

/**
 * A result that passes the runner's checks but that PostgreSQL still refuses (a JSON number beyond what
 * {@code numeric} holds: valid JSON, and SQLite takes it) fails its own job, as a failed attempt with the
 * database's message, while the other completions of its batch are written once.
 */
class PostgresRefusedResultTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	static final PostgresQueueFixture postgres = new PostgresQueueFixture(32);

	private static QueueFixture fixture() {
		return postgres.fixture();
	}

	@Test
	void aResultTheDatabaseRefusesFailsItsOwnJobWithTheDatabasesMessageAndNoOther() {
		int jobs = 6;
		CountDownLatch together = new CountDownLatch(jobs);
		Map<Long, AtomicInteger> calls = new ConcurrentHashMap<>();
		fixture().handle("number", Greeting.class, (greeting, context) -> {
			calls.computeIfAbsent(context.jobId(), id -> new AtomicInteger()).incrementAndGet();
			together.countDown();
			together.await(WAIT.toSeconds(), TimeUnit.SECONDS);
			return greeting.name().equals("guilty") ? new BigDecimal("1E+1000000") : BigDecimal.ONE;
		});
		// A long lease: a job that ends in time was not left to the reaper.
		fixture().startRuntime(QueueFixture.SETTINGS.toBuilder()
				.lease(Duration.ofMinutes(5))
				.heartbeatInterval(Duration.ofSeconds(1))
				.build(),
				new CountingListener());
		long guilty = fixture().queue().enqueue("number", new Greeting("guilty", 0),
				EnqueueOptions.defaults().maxAttempts(1));
		List<Long> innocent = IntStream.range(1, jobs)
			.mapToObj(i -> fixture().queue().enqueue("number", new Greeting("innocent-" + i, i)))
			.toList();

		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture().state(guilty)).isEqualTo(JobState.dead));
		Job dead = fixture().job(guilty);
		assertThat(dead.lastError()).contains("value overflows numeric format");
		assertThat(dead.errors()).singleElement()
			.satisfies(entry -> assertThat(entry.message()).contains("value overflows numeric format"));
		await().atMost(WAIT).untilAsserted(() -> assertThat(innocent)
			.allSatisfy(id -> assertThat(fixture().state(id)).isEqualTo(JobState.succeeded)));
		innocent.forEach(id -> {
			assertThat(fixture().job(id).attempt()).isEqualTo(1);
			assertThat(calls.get(id)).hasValue(1);
		});
	}
}
