package dev.jobqueue.contract;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.NonRetryableException;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How an execution's end is recorded, on every database: a result the database cannot store fails its
 * own job and no other, and whatever a handler throws is written as a failed attempt at once, by a
 * thread that goes on to the next job.
 */
public abstract class OutcomeContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	/** Longer than any wait here: a job that ends in time was not left to its lease. */
	private static final RuntimeSettings LONG_LEASE = QueueFixture.SETTINGS.toBuilder()
			.lease(Duration.ofMinutes(5))
			.heartbeatInterval(Duration.ofSeconds(1))
			.build();

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

	static Stream<Arguments> unstorableResults() {
		return Stream.of(Arguments.of("a string holding U+0000", "a\u0000b", "holds U+0000"),
				Arguments.of("a result over max-result-length", "x".repeat(RuntimeSettings.DEFAULT_MAX_PAYLOAD_LENGTH),
						"over jobqueue.max-result-length"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("unstorableResults")
	void aResultTheDatabaseCannotStoreKillsItsJobWhileTheOthersOfItsBatchSucceedOnce(String what, String bad,
			String reason) {
		int jobs = 6;
		CountDownLatch together = new CountDownLatch(jobs);
		Map<Long, AtomicInteger> calls = new ConcurrentHashMap<>();
		fixture.handle("echo", Greeting.class, (greeting, context) -> {
			calls.computeIfAbsent(context.jobId(), id -> new AtomicInteger()).incrementAndGet();
			together.countDown();
			// All finish at once, so that their completions reach the batcher together.
			together.await(WAIT.toSeconds(), TimeUnit.SECONDS);
			return greeting.name().equals("guilty") ? bad : greeting.name();
		});
		fixture.startRuntime();
		long guilty = fixture.queue().enqueue("echo", new Greeting("guilty", 0),
				EnqueueOptions.defaults().maxAttempts(10));
		List<Long> innocent = IntStream.range(1, jobs)
			.mapToObj(i -> fixture.queue().enqueue("echo", new Greeting("innocent-" + i, i)))
			.toList();

		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(guilty)).isEqualTo(JobState.dead));
		Job dead = fixture.job(guilty);
		assertThat(dead.attempt()).isEqualTo(1);
		assertThat(dead.lastError()).contains("result of job " + guilty).contains(reason);
		assertThat(dead.result()).isNull();
		await().atMost(WAIT).untilAsserted(() -> assertThat(innocent)
			.allSatisfy(id -> assertThat(fixture.state(id)).isEqualTo(JobState.succeeded)));
		innocent.forEach(id -> {
			assertThat(fixture.job(id).attempt()).isEqualTo(1);
			assertThat(calls.get(id)).hasValue(1);
		});
	}

	static Stream<Arguments> unserializableResults() {
		return Stream.of(Arguments.of("a cyclic object", false), Arguments.of("a cyclic object", true),
				Arguments.of("an object whose getter throws", false), Arguments.of("an object whose getter throws", true));
	}

	@ParameterizedTest(name = "{0}, transactional: {1}")
	@MethodSource("unserializableResults")
	void aResultThatCannotBeSerializedIsDeadAtOnceBlamingTheResultAndTheHandlerRunsOnce(String what,
			boolean transactional) {
		AtomicInteger sideEffects = new AtomicInteger();
		fixture.handle("unserializable", Greeting.class, null, transactional, (greeting, context) -> {
			sideEffects.incrementAndGet();
			return what.equals("a cyclic object") ? Link.cycle() : new Unwritable("secret");
		});
		fixture.startRuntime(LONG_LEASE, new CountingListener());

		long id = fixture.queue().enqueue("unserializable", new Greeting("Ada", 1),
				EnqueueOptions.defaults().maxAttempts(5));

		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(JobState.dead));
		assertThat(sideEffects).hasValue(1);
		assertThat(fixture.job(id).attempt()).isEqualTo(1);
		assertThat(fixture.job(id).lastError()).startsWith(NonRetryableException.class.getName() + ": result of job "
				+ id + " (unserializable) cannot be written as JSON")
			.contains("the handler returned, its work is done and is not run again")
			.hasSizeLessThan(4_000);
	}

	static Stream<Arguments> throwables() {
		return Stream.of(Arguments.of("StackOverflowError", false), Arguments.of("OutOfMemoryError", false),
				Arguments.of("HandlerError", false), Arguments.of("StackOverflowError", true),
				Arguments.of("OutOfMemoryError", true), Arguments.of("HandlerError", true));
	}

	@ParameterizedTest(name = "{0}, transactional: {1}")
	@MethodSource("throwables")
	void whateverAHandlerThrowsIsRecordedAtOnceAndItsThreadRunsTheNextJob(String thrown, boolean transactional) {
		Map<String, Thread> threads = new ConcurrentHashMap<>();
		fixture.handle("explode", Greeting.class, null, transactional, (greeting, context) -> {
			threads.put("explode", Thread.currentThread());
			return explode(greeting.name());
		});
		fixture.handle("after", Greeting.class, (greeting, context) -> threads.put("after", Thread.currentThread()));
		fixture.startRuntime(LONG_LEASE.toBuilder()
				.queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, 1))
				.build(), new CountingListener());

		long exploded = fixture.queue().enqueue("explode", new Greeting(thrown, 1),
				EnqueueOptions.defaults().maxAttempts(1));
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(exploded)).isEqualTo(JobState.dead));
		long after = fixture.queue().enqueue("after", new Greeting("next", 1));

		Job dead = fixture.job(exploded);
		assertThat(dead.attempt()).isEqualTo(1);
		assertThat(dead.lastError()).contains(thrown);
		if (!thrown.equals("OutOfMemoryError")) {
			// Once its few preallocated ones are used, the JVM throws OutOfMemoryErrors without a trace.
			assertThat(dead.lastError()).contains("\tat ");
		}
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(after)).isEqualTo(JobState.succeeded));
		assertThat(threads.get("after")).isSameAs(threads.get("explode"));
	}

	/** Each one thrown as handler code would throw it: a real recursion, a real allocation. */
	private static Object explode(String name) {
		return switch (name) {
			case "StackOverflowError" -> recurse(0);
			case "OutOfMemoryError" -> new long[Integer.MAX_VALUE - 16].length;
			default -> throw new HandlerError("a custom Error from the handler");
		};
	}

	private static int recurse(int depth) {
		return recurse(depth + 1) + 1;
	}

	/** A result Jackson fails on: reading its one property throws. */
	record Unwritable(String value) {

		@Override
		public String value() {
			throw new IllegalStateException("not readable");
		}
	}

	/** Two links that point at each other: Jackson recurses until it gives up. */
	static final class Link {

		private Link next;

		public Link getNext() {
			return next;
		}

		static Link cycle() {
			Link first = new Link();
			Link second = new Link();
			first.next = second;
			second.next = first;
			return first;
		}
	}

	/** An {@code Error} of the application's own. */
	static final class HandlerError extends Error {

		HandlerError(String message) {
			super(message);
		}
	}
}
