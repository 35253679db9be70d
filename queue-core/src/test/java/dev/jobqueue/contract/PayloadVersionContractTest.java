package dev.jobqueue.contract;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobHandlerFunction;
import dev.jobqueue.JobState;
import dev.jobqueue.PayloadUpcaster;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.UpcasterDefinition;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Payloads whose shape changes across deploys, on every database: a job carries the payload version its
 * handler had when it was enqueued; a node upcasts older payloads to its handler's version before binding,
 * and never claims a payload newer than its handler reads.
 *
 * <p>The kind {@code greet} in three versions: 1 is {@link Greeting} ({@code name}, {@code count}), 2 splits
 * the name ({@code firstName}, {@code lastName}, {@code count}), 3 renames the count ({@link GreetingV3}).
 */
public abstract class PayloadVersionContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final PayloadUpcaster SPLIT_NAME = payload -> {
		ObjectNode next = ((ObjectNode) payload).deepCopy();
		String[] names = next.remove("name").asString().split(" ", 2);
		return next.put("firstName", names[0]).put("lastName", names[1]);
	};

	private static final PayloadUpcaster RENAME_COUNT = payload -> {
		ObjectNode next = ((ObjectNode) payload).deepCopy();
		return next.set("times", next.remove("count"));
	};

	/** The payload version 3 of {@code greet} reads. */
	public record GreetingV3(String firstName, String lastName, int times) {
	}

	private QueueFixture fixture;

	/** Which node ran each job, by job id. */
	private final Map<Long, String> ranOn = new ConcurrentHashMap<>();

	/** What each job's handler received, by job id. */
	private final Map<Long, Object> received = new ConcurrentHashMap<>();

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
	void jobsEnqueuedAtVersionOneRunWithVersionThreePayloadsOnceTheHandlerMovedOnWithTwoUpcasters() {
		fixture.handle("greet", Greeting.class, (greeting, context) -> null);
		long ada = fixture.queue().enqueue("greet", new Greeting("Ada Lovelace", 2));
		long alan = fixture.queue().enqueue("greet", new Greeting("Alan Turing", 3));
		assertThat(fixture.job(ada).payloadVersion()).isEqualTo(1);

		startNode(versionThree("new", SPLIT_NAME, RENAME_COUNT));

		awaitState(ada, JobState.succeeded);
		awaitState(alan, JobState.succeeded);
		assertThat(received).containsEntry(ada, new GreetingV3("Ada", "Lovelace", 2))
			.containsEntry(alan, new GreetingV3("Alan", "Turing", 3));
		assertThat(fixture.job(ada).payload()).as("the stored payload is left as it was").contains("\"name\"");
	}

	@Test
	void anOldNodeLeavesNewerPayloadsToTheNewNodeAndBothRunTheOlderOnes() {
		startNode(versionOne("old"));
		List<Long> newer = enqueue(4, 3);
		List<Long> older = enqueue(4, 1);
		older.forEach(id -> awaitState(id, JobState.succeeded));
		for (long id : newer) {
			Job waiting = fixture.job(id);
			assertThat(waiting.state()).isEqualTo(JobState.ready);
			assertThat(waiting.attempt()).isZero();
			assertThat(waiting.lastError()).isNull();
		}

		startNode(versionThree("new", SPLIT_NAME, RENAME_COUNT));
		List<Long> laterOlder = enqueue(8, 1);
		List<Long> laterNewer = enqueue(8, 3);

		newer.forEach(id -> awaitState(id, JobState.succeeded));
		laterNewer.forEach(id -> awaitState(id, JobState.succeeded));
		laterOlder.forEach(id -> awaitState(id, JobState.succeeded));
		newer.forEach(id -> assertThat(ranOn).containsEntry(id, "new"));
		laterNewer.forEach(id -> assertThat(ranOn).containsEntry(id, "new"));
		older.forEach(id -> assertThat(ranOn).containsEntry(id, "old"));
	}

	@Test
	void aJobWhoseVersionHasNoUpcasterEndsDeadNamingTheMissingStep() {
		startNode(versionThree("new", RENAME_COUNT));

		long id = fixture.queue().enqueue("greet", new Greeting("Ada Lovelace", 2),
				EnqueueOptions.defaults().payloadVersion(1).maxAttempts(5));

		awaitState(id, JobState.dead);
		Job job = fixture.job(id);
		assertThat(job.attempt()).as("no retry can supply the step").isEqualTo(1);
		assertThat(job.lastError()).contains("kind 'greet'")
			.contains("has version 1")
			.contains("reads version 3")
			.contains("no upcaster from version 1 to 2")
			.contains("@JobPayloadUpcaster(kind = \"greet\", from = 1)");
	}

	@Test
	void anUpcasterThatThrowsFailsTheAttemptAsAHandlerWould() {
		PayloadUpcaster broken = payload -> {
			throw new IllegalStateException("no name to split");
		};
		startNode(versionThree("new", broken, RENAME_COUNT));

		long id = fixture.queue().enqueue("greet", new Greeting("Ada Lovelace", 2),
				EnqueueOptions.defaults().payloadVersion(1).maxAttempts(2));

		awaitState(id, JobState.dead);
		Job job = fixture.job(id);
		assertThat(job.attempt()).as("retried like a handler's failure").isEqualTo(2);
		assertThat(job.lastError()).contains("upcaster from 1 of greet").contains("no name to split");
		assertThat(received).doesNotContainKey(id);
	}

	@Test
	void aClaimThatReadsUpToVersionOneLeavesAVersionThreeJobReadyAndUntouched() {
		fixture.declareExternal("greet");
		long newer = fixture.queue().enqueue("greet", new Greeting("Ada", 1),
				EnqueueOptions.defaults().payloadVersion(3).priority(0));
		long older = fixture.queue().enqueue("greet", new Greeting("Alan", 1));

		assertThat(fixture.store().claims().claim("default", Map.of("greet", 1), 10, "old", Duration.ofSeconds(30),
				false))
			.singleElement()
			.satisfies(job -> assertThat(job.id()).isEqualTo(older))
			.satisfies(job -> assertThat(job.payloadVersion()).isEqualTo(1));
		Job untouched = fixture.job(newer);
		assertThat(untouched.state()).isEqualTo(JobState.ready);
		assertThat(untouched.attempt()).isZero();
		assertThat(untouched.leaseOwner()).isNull();
		assertThat(untouched.payloadVersion()).isEqualTo(3);

		assertThat(fixture.store().claims().claim("default", Map.of("greet", 3), 10, "new", Duration.ofSeconds(30),
				false))
			.extracting(ClaimedJob::id, ClaimedJob::payloadVersion)
			.containsExactly(tuple(newer, 3));
	}

	@Test
	void anEnqueueTakesItsHandlersVersionUnlessTheOptionsNameOne() {
		fixture.handle(definition(3, (payload, context) -> null));

		long declared = fixture.queue().enqueue("greet", new GreetingV3("Ada", "Lovelace", 1));
		long named = fixture.queue().enqueue("greet", new GreetingV3("Ada", "Lovelace", 1),
				EnqueueOptions.defaults().payloadVersion(4));

		assertThat(fixture.job(declared).payloadVersion()).isEqualTo(3);
		assertThat(fixture.job(named).payloadVersion()).isEqualTo(4);
	}

	private void awaitState(long id, JobState state) {
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(state));
	}

	/** Enqueues {@code count} jobs of {@code greet} at {@code version}, each payload of that version's shape. */
	private List<Long> enqueue(int count, int version) {
		Object payload = version == 1 ? new Greeting("Ada Lovelace", 1) : new GreetingV3("Ada", "Lovelace", 1);
		return IntStream.range(0, count)
			.mapToObj(i -> fixture.queue().enqueue("greet", payload, EnqueueOptions.defaults().payloadVersion(version)))
			.toList();
	}

	private void startNode(HandlerRegistry handlers) {
		fixture.startRuntime(handlers, QueueFixture.SETTINGS, new CountingListener());
	}

	/** A node of the code before the change: {@code greet} reads version 1. */
	private HandlerRegistry versionOne(String node) {
		HandlerRegistry handlers = new HandlerRegistry();
		handlers.register(QueueFixture.definition("greet", Greeting.class, null, false, recording(node)));
		return handlers;
	}

	/** A node of the code after the change: {@code greet} reads version 3, with upcasters from 3 - n on. */
	private HandlerRegistry versionThree(String node, PayloadUpcaster... upcasters) {
		HandlerRegistry handlers = new HandlerRegistry();
		handlers.register(definition(3, recording(node)));
		for (int i = 0; i < upcasters.length; i++) {
			int from = 3 - upcasters.length + i;
			handlers.registerUpcaster(new UpcasterDefinition("greet", from, upcasters[i], "upcaster from " + from
					+ " of greet"));
		}
		return handlers;
	}

	/** A handler that notes which node ran each job and the payload it received. */
	private <T> JobHandlerFunction<T> recording(String node) {
		return (payload, context) -> {
			ranOn.put(context.jobId(), node);
			received.put(context.jobId(), payload);
			return null;
		};
	}

	@SuppressWarnings("unchecked")
	private static JobHandlerDefinition definition(int version, JobHandlerFunction<GreetingV3> function) {
		return new JobHandlerDefinition("greet", RuntimeSettings.DEFAULT_QUEUE, GreetingV3.class, null, false,
				(JobHandlerFunction<Object>) (JobHandlerFunction<?>) function, "test handler of greet v" + version,
				null, version);
	}
}
