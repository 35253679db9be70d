package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * Nodes that serve different kinds on one queue, as during a rolling deploy or with kinds another
 * application runs: a node runs only the kinds it serves, and leaves the others for a node that does.
 */
public abstract class KindsContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private QueueFixture fixture;

	/** Which node ran each job, by job id. */
	private final Map<Long, String> ranOn = new ConcurrentHashMap<>();

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	private void awaitState(long id, JobState state) {
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(state));
	}

	/** A node whose registry serves {@code kinds}, each handler noting that it ran on {@code node}. */
	private void startNode(String node, Set<String> kinds) {
		HandlerRegistry handlers = new HandlerRegistry();
		kinds.forEach(kind -> handlers.register(QueueFixture.definition(kind, Greeting.class, null, false,
				(greeting, context) -> {
					ranOn.put(context.jobId(), node);
					return null;
				})));
		fixture.startRuntime(handlers, QueueFixture.SETTINGS, new CountingListener());
	}

	@Test
	void aClaimTakesOnlyTheKindsAskedForInClaimOrderAndLeavesTheOthersUntouched() {
		fixture.declareExternal("greet");
		fixture.declareExternal("welcome");
		fixture.declareExternal("report");
		EnqueueOptions urgent = EnqueueOptions.defaults().priority(0);
		long urgentWelcome = fixture.queue().enqueue("welcome", new Greeting("a", 1), urgent);
		long greet = fixture.queue().enqueue("greet", new Greeting("b", 1));
		long report = fixture.queue().enqueue("report", new Greeting("c", 1), urgent);
		long welcome = fixture.queue().enqueue("welcome", new Greeting("d", 1));

		assertThat(fixture.store().claims().claim("default", Map.of("greet", 1, "welcome", 1), 10, "w", Duration.ofSeconds(30),
				false))
			.extracting(ClaimedJob::id)
			.containsExactly(urgentWelcome, greet, welcome);
		Job untouched = fixture.job(report);
		assertThat(untouched.state()).isEqualTo(JobState.ready);
		assertThat(untouched.attempt()).isZero();
		assertThat(untouched.leaseOwner()).isNull();
		assertThat(fixture.store().claims().claim("default", Map.of(), 10, "w", Duration.ofSeconds(30),
				false)).isEmpty();
	}

	@Test
	void aKindOnlyTheNewerNodeServesNeverDiesOnTheOlderOneAndRunsOnTheNewerOne() {
		fixture.handle("greet", Greeting.class, (greeting, context) -> null);
		fixture.handle("welcome", Greeting.class, (greeting, context) -> null);
		startNode("old", Set.of("greet"));

		long welcome = fixture.queue().enqueue("welcome", new Greeting("Ada", 1));
		long greet = fixture.queue().enqueue("greet", new Greeting("Bob", 1));

		awaitState(greet, JobState.succeeded);
		Job waiting = fixture.job(welcome);
		assertThat(waiting.state()).isEqualTo(JobState.ready);
		assertThat(waiting.attempt()).isZero();
		assertThat(waiting.lastError()).isNull();

		startNode("new", Set.of("greet", "welcome"));
		awaitState(welcome, JobState.succeeded);
		assertThat(ranOn).containsEntry(welcome, "new").containsEntry(greet, "old");
		assertThat(fixture.job(welcome).attempt()).isEqualTo(1);
	}

	@Test
	void anExternalKindEnqueuedOnANodeWorkingItsQueueWaitsForTheNodeThatServesIt() {
		fixture.handle("greet", Greeting.class, (greeting, context) -> null);
		fixture.declareExternal("report");
		fixture.startRuntime();

		long report = fixture.queue().enqueue("report", new Greeting("Ada", 1));
		long greet = fixture.queue().enqueue("greet", new Greeting("Bob", 1));

		awaitState(greet, JobState.succeeded);
		assertThat(fixture.job(report).state()).isEqualTo(JobState.ready);
		assertThat(fixture.job(report).attempt()).isZero();

		startNode("reports", Set.of("report"));
		awaitState(report, JobState.succeeded);
		assertThat(ranOn).containsEntry(report, "reports");
	}

	@Test
	void aPayloadThatDoesNotBindIsRetriedThenDeadAfterItsAttemptsWithTheBindingError() {
		fixture.handle("greet", Greeting.class, (greeting, context) -> null);
		fixture.startRuntime();

		// Written by another application: an enqueue here checks the payload against the handler and refuses it.
		long id = fixture.store().enqueues().enqueue(new NewJob(RuntimeSettings.DEFAULT_QUEUE, "greet",
				"{\"name\": \"Ada\", \"count\": \"not a number\"}", 1, 5, null, Duration.ZERO, 3, null)).id();

		awaitState(id, JobState.dead);
		Job job = fixture.job(id);
		assertThat(job.attempt()).isEqualTo(3);
		assertThat(job.lastError()).contains("does not fit").contains(Greeting.class.getName())
			.contains("not a number");
	}
}
