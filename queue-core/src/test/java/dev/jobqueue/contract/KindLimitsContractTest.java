package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;
import dev.jobqueue.JobHandlerFunction;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.Schedule;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobHandlerDefinition.KeyLimits;
import dev.jobqueue.runtime.ScheduleDefinition;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.LogCapture;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * A kind's limits are declared by the nodes that serve it, stored in the database, and applied whoever enqueues:
 * another application that lists the kind as external, a schedule. "Never two at once" holds for all of them.
 */
public abstract class KindLimitsContractTest {

	private static final String KIND = "sync";

	private static final KeyLimits ONE_AT_A_TIME = new KeyLimits(1, false, 1);

	private QueueFixture fixture;

	private final AtomicInteger running = new AtomicInteger();

	private final AtomicInteger mostRunning = new AtomicInteger();

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
	}

	private final List<JdbcJobQueue> enqueuers = new ArrayList<>();

	@AfterEach
	void tearDown() {
		enqueuers.forEach(JdbcJobQueue::close);
		fixture.close();
	}

	@Test
	void anotherApplicationsEnqueuesOfAKindTakeTheLimitsItsServingNodesDeclared() {
		fixture.handle(definition(ONE_AT_A_TIME, Duration.ofMillis(300)));
		startTwoNodes();
		JdbcJobQueue elsewhere = enqueuerThatListsTheKindAsExternal();

		List<Long> ids = IntStream.range(0, 4).mapToObj(i -> elsewhere.enqueue(KIND, new Greeting("sync", i))).toList();

		assertThat(ids).allSatisfy(id -> assertThat(fixture.job(id).concurrencyKey()).isEqualTo("kind:" + KIND));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> ids.stream().allMatch(id -> fixture.state(id) == JobState.succeeded));
		assertThat(mostRunning).hasValue(1);
	}

	@Test
	void aSchedulesJobsTakeTheKindsLimits() {
		fixture.handle(definition(ONE_AT_A_TIME, Duration.ofMillis(1500)));
		fixture.handlers().registerSchedule(new ScheduleDefinition("sync-every-second",
				Schedule.every(Duration.ofSeconds(1)).kind(KIND).payload(new Greeting("scheduled", 0)), "test schedule"));
		startTwoNodes();

		await().atMost(Duration.ofSeconds(30)).until(() -> succeededOfKind() >= 3);

		assertThat(fixture.jdbc().sql("SELECT DISTINCT concurrency_key FROM jobqueue_job").query(String.class).list())
			.containsExactly("kind:" + KIND);
		assertThat(mostRunning).hasValue(1);
	}

	@Test
	void aNodeWhoseStartReplacesAnotherNodesDeclarationSaysSoAndItsLimitsApplyFromThen() {
		fixture.handle(definition(ONE_AT_A_TIME, Duration.ofMillis(10)));
		String first = fixture.startRuntime().owner();
		HandlerRegistry upgraded = new HandlerRegistry();
		upgraded.register(definition(new KeyLimits(1, false, 3), Duration.ofMillis(10)));

		try (LogCapture log = new LogCapture()) {
			fixture.startRuntime(upgraded, QueueFixture.SETTINGS, new CountingListener());

			assertThat(log.messagesAtLeast(Level.WARN)).singleElement().asString()
				.contains("Kind '" + KIND + "'", "cluster concurrency 3", "node '" + first + "'", "cluster concurrency 1");
		}
		long id = enqueuerThatListsTheKindAsExternal().enqueue(KIND, new Greeting("after", 1));
		assertThat(fixture.jdbc().sql("SELECT concurrency_limit FROM jobqueue_job WHERE id = :id").param("id", id)
			.query(Integer.class).single()).isEqualTo(3);
	}

	private void startTwoNodes() {
		RuntimeSettings twoThreads = QueueFixture.SETTINGS.toBuilder()
			.queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, 2))
			.build();
		fixture.startRuntime(twoThreads, new CountingListener());
		fixture.startRuntime(twoThreads, new CountingListener());
	}

	/** A queue of an application without the kind's handler, as another service would enqueue from. */
	private JdbcJobQueue enqueuerThatListsTheKindAsExternal() {
		HandlerRegistry external = new HandlerRegistry();
		external.declareExternal(KIND);
		JdbcJobQueue queue = new JdbcJobQueue(database().store(), QueueFixture.JSON, external, QueueFixture.SETTINGS,
				JobListener.NONE, name -> {
				});
		enqueuers.add(queue);
		return queue;
	}

	private long succeededOfKind() {
		return fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job WHERE kind = :kind AND state = 'succeeded'")
			.param("kind", KIND).query(Long.class).single();
	}

	@SuppressWarnings("unchecked")
	private JobHandlerDefinition definition(KeyLimits limits, Duration work) {
		JobHandlerFunction<Greeting> function = (greeting, context) -> {
			mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
			try {
				Thread.sleep(work.toMillis());
			}
			finally {
				running.decrementAndGet();
			}
			return null;
		};
		return new JobHandlerDefinition(KIND, RuntimeSettings.DEFAULT_QUEUE, Greeting.class, null, false,
				(JobHandlerFunction<Object>) (JobHandlerFunction<?>) function, "test handler of " + KIND, null, 1, false,
				limits);
	}
}
