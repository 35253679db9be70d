package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.HandlerOptions;
import dev.jobqueue.JobHandlerFunction;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobHandlerDefinition.KeyLimits;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * Concurrency keys: a key's jobs hold at most its limit of slots (ready or running) at once, cluster-wide, and
 * get them in enqueue order, so that with limit 1 they run one after the other in the order they were enqueued.
 */
public abstract class ConcurrencyKeyContractTest {

	private static final Duration WAIT = Duration.ofMinutes(3);

	private static final RetryPolicy QUICK_RETRIES = new RetryPolicy(5, Duration.ofMillis(5), Duration.ofMillis(20),
			2.0, 0.0);

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

	/** One execution of a job: when its handler started and ended, by this JVM's monotonic clock. */
	record Run(long id, int attempt, long start, long end) {
	}

	private void handle(String kind, KeyLimits limits, JobHandlerFunction<Greeting> function) {
		handle(kind, limits, QUICK_RETRIES, function);
	}

	@SuppressWarnings("unchecked")
	private void handle(String kind, KeyLimits limits, RetryPolicy policy, JobHandlerFunction<Greeting> function) {
		fixture.handle(new JobHandlerDefinition(kind, RuntimeSettings.DEFAULT_QUEUE, Greeting.class, policy, false,
				(JobHandlerFunction<Object>) (JobHandlerFunction<?>) function, "test handler of " + kind, null, 1, false,
				limits));
	}

	private static EnqueueOptions key(String key) {
		return EnqueueOptions.defaults().concurrencyKey(key);
	}

	private RuntimeSettings threads(int threads) {
		return QueueFixture.SETTINGS.toBuilder().queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, threads)).build();
	}

	private long count(JobState state) {
		return fixture.counts().values().stream().mapToLong(byState -> byState.getOrDefault(state, 0L)).sum();
	}

	@Test
	void orderedKeysRunOneJobAtATimeInEnqueueOrderAcrossThreeRuntimesDespiteRetries() {
		int keys = 200;
		int jobsPerKey = 50;
		Map<String, List<Run>> runsByKey = new ConcurrentHashMap<>();
		handle("step", KeyLimits.DEFAULTS, (greeting, context) -> {
			long start = System.nanoTime();
			Thread.sleep(greeting.count() % 3);
			List<Run> runs = runsByKey.computeIfAbsent(greeting.name(),
					k -> Collections.synchronizedList(new ArrayList<>()));
			// Every seventh job fails its first attempt (and sometimes its second), as flaky work does.
			boolean fails = greeting.count() % 7 == 3 && context.attempt() <= 1 + greeting.count() % 2;
			runs.add(new Run(context.jobId(), context.attempt(), start, System.nanoTime()));
			if (fails) {
				throw new IllegalStateException("flaky step " + greeting.count());
			}
			return null;
		});
		List<NewJobRequest> requests = new ArrayList<>();
		for (int job = 0; job < jobsPerKey; job++) {
			for (int k = 0; k < keys; k++) {
				requests.add(new NewJobRequest("step", new Greeting("key-" + k, job), key("key-" + k)));
			}
		}
		List<Long> ids = fixture.queue().enqueueAll(requests);
		IntStream.range(0, 3).forEach(i -> fixture.startRuntime(threads(8), new CountingListener()));

		await().atMost(WAIT).pollInterval(Duration.ofMillis(250)).until(() -> count(JobState.succeeded) == ids.size());

		assertThat(runsByKey).hasSize(keys);
		runsByKey.forEach((key, runs) -> {
			List<Run> byStart = runs.stream().sorted(Comparator.comparingLong(Run::start)).toList();
			List<Long> firstStarts = byStart.stream().map(Run::id).distinct().toList();
			assertThat(firstStarts).as("start order of %s", key).isSorted().hasSize(jobsPerKey);
			for (int i = 1; i < byStart.size(); i++) {
				assertThat(byStart.get(i).start()).as("%s: %s starts after %s ended", key, byStart.get(i),
						byStart.get(i - 1)).isGreaterThanOrEqualTo(byStart.get(i - 1).end());
			}
		});
	}

	@Test
	void aKeyNeverHasMoreJobsRunningThanItsLimit() {
		AtomicInteger running = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		handle("limited", new KeyLimits(3, false, 0), (greeting, context) -> {
			most.accumulateAndGet(running.incrementAndGet(), Math::max);
			Thread.sleep(20);
			running.decrementAndGet();
			return null;
		});
		for (int i = 0; i < 40; i++) {
			fixture.queue().enqueue("limited", new Greeting("x", i), key("account-1"));
		}
		fixture.startRuntime(threads(8), new CountingListener());
		fixture.startRuntime(threads(8), new CountingListener());

		await().atMost(WAIT).until(() -> count(JobState.succeeded) == 40);
		assertThat(most).hasValue(3);
	}

	@Test
	void aKindWithAClusterWideLimitNeverRunsMoreThanItAcrossThreeRuntimes() {
		AtomicInteger running = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		AtomicInteger mostInTable = new AtomicInteger();
		handle("call-partner", new KeyLimits(1, false, 4), (greeting, context) -> {
			most.accumulateAndGet(running.incrementAndGet(), Math::max);
			Thread.sleep(10);
			running.decrementAndGet();
			return null;
		});
		List<Long> ids = fixture.queue().enqueueAll(IntStream.range(0, 200)
			.mapToObj(i -> new NewJobRequest("call-partner", new Greeting("p", i)))
			.toList());
		IntStream.range(0, 3).forEach(i -> fixture.startRuntime(threads(8), new CountingListener()));

		await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> {
			mostInTable.accumulateAndGet((int) count(JobState.running), Math::max);
			return count(JobState.succeeded) == 200;
		});
		assertThat(most.get()).isBetween(2, 4);
		assertThat(mostInTable.get()).isLessThanOrEqualTo(4);
		assertThat(fixture.job(ids.get(0)).concurrencyKey()).isEqualTo("kind:call-partner");
	}

	@Test
	void keysDoNotHoldEachOtherUp() {
		handle("step", KeyLimits.DEFAULTS, (greeting, context) -> {
			if (greeting.name().equals("stuck")) {
				Thread.sleep(60_000);
			}
			return null;
		});
		long stuck = fixture.queue().enqueue("step", new Greeting("stuck", 0), key("a"));
		long behindStuck = fixture.queue().enqueue("step", new Greeting("later", 1), key("a"));
		long other = fixture.queue().enqueue("step", new Greeting("other", 2), key("b"));
		long unkeyed = fixture.queue().enqueue("step", new Greeting("plain", 3));
		fixture.startRuntime(threads(4), new CountingListener());

		await().atMost(WAIT).until(() -> fixture.state(other) == JobState.succeeded
				&& fixture.state(unkeyed) == JobState.succeeded);
		assertThat(fixture.state(stuck)).isEqualTo(JobState.running);
		assertThat(fixture.state(behindStuck)).isEqualTo(JobState.blocked);
		assertThat(fixture.queue().cancel(stuck)).isTrue();
		await().atMost(WAIT).until(() -> fixture.state(behindStuck) == JobState.succeeded);
	}

	@Test
	void aDeadJobFreesItsSlotUnlessItsKindSaysItBlocksTheKey() {
		RetryPolicy once = new RetryPolicy(1, Duration.ofMillis(5), Duration.ofMillis(5), 1.0, 0.0);
		JobHandlerFunction<Greeting> failFirst = (greeting, context) -> {
			if (greeting.count() == 0) {
				throw new IllegalStateException("first fails");
			}
			return null;
		};
		handle("releases", KeyLimits.DEFAULTS, once, failFirst);
		handle("blocks", new KeyLimits(1, true, 0), once, failFirst);
		long releasingDead = fixture.queue().enqueue("releases", new Greeting("r", 0), key("r"));
		long releasedNext = fixture.queue().enqueue("releases", new Greeting("r", 1), key("r"));
		long blockingDead = fixture.queue().enqueue("blocks", new Greeting("b", 0), key("b"));
		long blockedNext = fixture.queue().enqueue("blocks", new Greeting("b", 1), key("b"));
		fixture.startRuntime();

		await().atMost(WAIT).until(() -> fixture.state(releasedNext) == JobState.succeeded
				&& fixture.state(blockingDead) == JobState.dead);
		assertThat(fixture.state(releasingDead)).isEqualTo(JobState.dead);
		assertThat(fixture.state(blockedNext)).isEqualTo(JobState.blocked);

		assertThat(fixture.queue().retry(blockingDead)).isTrue();
		await().atMost(WAIT).until(() -> fixture.state(blockingDead) == JobState.dead
				&& fixture.job(blockingDead).errors().size() == 2);
		assertThat(fixture.state(blockedNext)).isEqualTo(JobState.blocked);
		assertThat(fixture.queue().cancel(releasingDead)).isFalse();
		assertThat(fixture.queue().cancel(blockingDead)).isTrue();
		await().atMost(WAIT).until(() -> fixture.state(blockedNext) == JobState.succeeded);
	}

	@Test
	void aBlockedJobIsUnfinishedHoldsItsUniqueKeyAndCanBeCancelled() {
		fixture.declareExternal("sync");
		long first = fixture.queue().enqueue("sync", new Greeting("a", 0), key("k"));
		long blocked = fixture.queue().enqueue("sync", new Greeting("a", 1), key("k").uniqueKey("u"));
		await().atMost(WAIT).until(() -> fixture.state(first) == JobState.ready);

		assertThat(fixture.state(blocked)).isEqualTo(JobState.blocked);
		assertThat(fixture.job(blocked).concurrencyKey()).isEqualTo("k");
		assertThat(fixture.queue().enqueueUnique("sync", new Greeting("a", 2), key("k").uniqueKey("u")))
			.satisfies(result -> {
				assertThat(result.inserted()).isFalse();
				assertThat(result.id()).isEqualTo(blocked);
			});
		assertThat(fixture.queue().cancel(blocked)).isTrue();
		assertThat(fixture.state(blocked)).isEqualTo(JobState.cancelled);
		assertThat(fixture.state(first)).isEqualTo(JobState.ready);
	}

	@Test
	void aLimitConfiguredForAKeysPrefixWinsOverTheHandlers() {
		AtomicInteger running = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		handle("tenant-work", KeyLimits.DEFAULTS, (greeting, context) -> {
			most.accumulateAndGet(running.incrementAndGet(), Math::max);
			Thread.sleep(30);
			running.decrementAndGet();
			return null;
		});
		RuntimeSettings settings = threads(8).toBuilder().concurrencyKeyLimit("tenant-", 2)
			.concurrencyKeyLimit("tenant-gold-", 5).build();
		for (int i = 0; i < 20; i++) {
			fixture.queue(settings).enqueue("tenant-work", new Greeting("g", i), key("tenant-gold-7"));
		}
		fixture.startRuntime(settings, new CountingListener());

		await().atMost(WAIT).until(() -> count(JobState.succeeded) == 20);
		assertThat(most).hasValue(5);
		long plain = fixture.queue(settings).enqueue("tenant-work", new Greeting("p", 0), key("tenant-3"));
		assertThat(fixture.jdbc().sql("SELECT concurrency_limit FROM jobqueue_job WHERE id = :id").param("id", plain)
			.query(Integer.class).single()).isEqualTo(2);
	}

	@Test
	void aPromotedJobJoinsTheBackOfTheReadyLine() {
		fixture.declareExternal("work");
		long first = fixture.queue().enqueue("work", new Greeting("a", 0), key("tenant-a"));
		long second = fixture.queue().enqueue("work", new Greeting("a", 1), key("tenant-a"));
		await().atMost(WAIT).until(() -> fixture.state(first) == JobState.ready);
		long plain = fixture.queue().enqueue("work", new Greeting("b", 0));
		fixture.store().claims().claim("default", Map.of("work", 1), 1, "w", Duration.ofSeconds(30), false);
		fixture.jdbc().sql("UPDATE jobqueue_job SET state = 'succeeded', finished_at = created_at WHERE id = :id")
			.param("id", first).update();

		assertThat(fixture.store().promotions().promote(List.of("tenant-a"))).containsExactly("default");
		assertThat(fixture.job(second).state()).isEqualTo(JobState.ready);
		assertThat(fixture.job(second).runAt()).isAfter(fixture.job(plain).runAt());
	}

	/**
	 * A key asked for may have nothing left waiting (its last job has just ended): the keys promoted with it in
	 * the same call, in one transaction, must not depend on it.
	 */
	@Test
	void aKeyWithNothingWaitingDoesNotHoldUpTheKeysPromotedWithIt() {
		fixture.declareExternal("work");
		long first = fixture.queue().enqueue("work", new Greeting("a", 0), key("tenant-a"));
		long second = fixture.queue().enqueue("work", new Greeting("a", 1), key("tenant-a"));
		await().atMost(WAIT).until(() -> fixture.state(first) == JobState.ready);
		fixture.jdbc().sql("UPDATE jobqueue_job SET state = 'succeeded', finished_at = created_at WHERE id = :id")
			.param("id", first).update();

		assertThat(fixture.store().promotions().promote(List.of("nothing-waiting", "tenant-a"))).containsExactly("default");
		assertThat(fixture.job(second).state()).isEqualTo(JobState.ready);
	}

	@Test
	void aRateLimitedKindNeverStartsMoreThanItsRateInAnyWindowAcrossThreeRuntimes() {
		RetryPolicy quick = new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(1), 1.0, 0.0);
		// A start is the claim, on the database's clock: the row's started_at while the handler runs.
		List<Long> starts = Collections.synchronizedList(new ArrayList<>());
		fixture.handle(new JobHandlerDefinition("call-partner", RuntimeSettings.DEFAULT_QUEUE, Greeting.class, quick,
				false, (payload, context) -> {
					starts.add(fixture.job(context.jobId()).startedAt().toEpochMilli());
					// Every fourth job fails once: its retry is a start too, and must wait for its turn.
					if (((Greeting) payload).count() % 4 == 0 && context.attempt() == 1) {
						throw new IllegalStateException("partner busy");
					}
					return null;
				}, "rate-limited handler", null, 1, false, new KeyLimits(1, false, 0, 4, Duration.ofMillis(500))));
		List<Long> ids = fixture.queue().enqueueAll(IntStream.range(0, 24)
			.mapToObj(i -> new NewJobRequest("call-partner", new Greeting("p", i)))
			.toList());
		IntStream.range(0, 3).forEach(i -> fixture.startRuntime(threads(8), new CountingListener()));

		await().atMost(WAIT).until(() -> count(JobState.succeeded) == ids.size());
		assertThat(starts).hasSize(30);
		List<Long> sorted = starts.stream().sorted().toList();
		for (int i = 4; i < sorted.size(); i++) {
			assertThat(sorted.get(i) - sorted.get(i - 4)).as("five starts within 500 ms: %s", sorted)
				.isGreaterThanOrEqualTo(500);
		}
	}

	@Test
	void aRateLimitAppliesToEachKeyOfItsKind() {
		fixture.handle(new JobHandlerDefinition("sync", RuntimeSettings.DEFAULT_QUEUE, Greeting.class, null, false,
				(payload, context) -> null, "rate-limited handler", null, 1, false,
				new KeyLimits(1, false, 0, 2, Duration.ofSeconds(30))));
		List<Long> ids = new ArrayList<>();
		for (String tenant : List.of("a", "b")) {
			for (int i = 0; i < 3; i++) {
				ids.add(fixture.queue().enqueue("sync", new Greeting(tenant, i), key("tenant-" + tenant)));
			}
		}
		fixture.startRuntime(threads(4), new CountingListener());

		await().atMost(WAIT).until(() -> count(JobState.succeeded) == 4);
		assertThat(ids).extracting(fixture::state).containsExactly(JobState.succeeded, JobState.succeeded,
				JobState.blocked, JobState.succeeded, JobState.succeeded, JobState.blocked);
	}

	@Test
	void badConcurrencyOptionsAreRefusedBeforeAnythingIsWritten() {
		handle("limited", new KeyLimits(1, false, 4), (greeting, context) -> null);
		fixture.declareExternal("free");
		long before = fixture.testHooks().newestId();

		assertThatIllegalArgumentException().isThrownBy(() -> key(" "))
			.withMessageContaining("concurrencyKey");
		assertThatIllegalArgumentException().isThrownBy(() -> key("k".repeat(1025)))
			.withMessageContaining("concurrencyKey must be at most 1024 bytes");
		assertThatIllegalArgumentException().isThrownBy(() -> key("kind:limited"))
			.withMessageContaining("must not start with 'kind:'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> fixture.queue().enqueue("limited", new Greeting("x", 1), key("customer-1")))
			.withMessageContaining("cluster-wide limit of 4");
		assertThatIllegalArgumentException().isThrownBy(() -> HandlerOptions.defaults().concurrencyKeyLimit(0))
			.withMessageContaining("concurrencyKeyLimit must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> HandlerOptions.defaults().clusterConcurrency(0))
			.withMessageContaining("clusterConcurrency must be at least 1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> HandlerOptions.defaults().clusterConcurrency(2).rateLimit(5, Duration.ofSeconds(1)))
			.withMessageContaining("rateLimit excludes clusterConcurrency");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> HandlerOptions.defaults().rateLimit(0, Duration.ofSeconds(1)))
			.withMessageContaining("starts must be at least 1, was 0");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RuntimeSettings.builder().concurrencyKeyLimit("tenant-", 0))
			.withMessageContaining("concurrency-key-limits.tenant- must be at least 1, was 0");
		assertThat(fixture.testHooks().newestId()).isEqualTo(before);
	}
}
