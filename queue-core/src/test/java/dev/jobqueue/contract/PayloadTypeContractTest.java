package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * A payload is checked against its kind's handler at enqueue, on every database: of the handler's type or
 * a JSON value that binds to it, never null unless declared nullable; a refusal names both types, writes
 * nothing and leaves the caller's transaction usable. In the worker, a property the type lacks fails the
 * binding unless turned off.
 */
public abstract class PayloadTypeContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private QueueFixture fixture;

	private final Map<String, Object> received = new ConcurrentHashMap<>();

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.handle("greet", Greeting.class, this::receive);
		fixture.handle("count", long.class, this::receive);
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@Test
	void aRecordOfAnotherTypeIsRefusedNamingBothTypesAndTheCallersTransactionGoesOn() {
		refusedInsideATransaction(() -> fixture.queue().enqueue("greet", new Farewell("Ada", 1)),
				"payload of kind 'greet' is a " + Farewell.class.getName() + ", but test handler of greet reads "
						+ Greeting.class.getName() + ": enqueue a Greeting, or a Map or other JSON value that binds to it");
	}

	@Test
	void aMapThatBindsIsAcceptedAndReachesTheHandlerAsItsType() {
		long id = fixture.queue().enqueue("greet", Map.of("name", "Ada", "count", 2));

		fixture.startRuntime();
		awaitState(id, JobState.succeeded);
		assertThat(received.get("greet")).isEqualTo(new Greeting("Ada", 2));
	}

	@Test
	void aMapWithAPropertyTheTypeLacksIsRefusedNamingTheProperty() {
		refusedInsideATransaction(() -> fixture.queue().enqueue("greet", Map.of("nmae", "Ada", "count", 2)),
				message -> assertThat(message).startsWith("payload of kind 'greet' is a ")
					.contains("but test handler of greet reads " + Greeting.class.getName())
					.contains("its JSON does not bind to it")
					.contains("\"nmae\""));
	}

	@Test
	void aMapWithAPropertyTheTypeLacksIsAcceptedWhenTheCheckIsTurnedOff() {
		JobQueue lenient = fixture.queue(QueueFixture.SETTINGS.toBuilder().failOnUnknownPayloadProperties(false).build());

		long id = lenient.enqueue("greet", Map.of("name", "Ada", "count", 2, "nickname", "A"));

		assertThat(fixture.job(id).payload()).contains("nickname");
	}

	@Test
	void aNumberConvertsToAPrimitiveParameterWhenItFitsAndAStringDoesNot() {
		assertThat(fixture.job(fixture.queue().enqueue("count", 42)).payload()).isEqualTo("42");
		assertThat(fixture.job(fixture.queue().enqueue("count", 42L)).payload()).isEqualTo("42");
		fixture.jdbc().sql("DELETE FROM jobqueue_job").update();

		refusedInsideATransaction(() -> fixture.queue().enqueue("count", "forty-two"),
				message -> assertThat(message).startsWith("payload of kind 'count' is a java.lang.String, but test "
						+ "handler of count reads long, and its JSON does not bind to it"));
	}

	@Test
	void aNullPayloadIsRefusedUnlessTheHandlerDeclaresItNullable() {
		refusedInsideATransaction(() -> fixture.queue().enqueue("greet", null),
				"payload of kind 'greet' is null, but test handler of greet reads a " + Greeting.class.getName()
						+ " that is not declared nullable: pass a payload, or declare the parameter @Nullable");
		fixture.handle(new JobHandlerDefinition("maybe", RuntimeSettings.DEFAULT_QUEUE, Greeting.class, null, false,
				(payload, context) -> String.valueOf(payload), "test handler of maybe", null, 1, true));

		long id = fixture.queue().enqueue("maybe", null);

		fixture.startRuntime();
		awaitState(id, JobState.succeeded);
		assertThat(fixture.job(id).result()).isEqualTo("\"null\"");
	}

	@Test
	void aKindWithoutAHandlerHereTakesAnyPayload() {
		fixture.declareExternal("elsewhere");

		long id = fixture.queue().enqueue("elsewhere", new Farewell("Ada", 1));

		assertThat(fixture.job(id).payload()).contains("Ada");
	}

	@Test
	void aStoredPayloadWithAPropertyTheTypeLacksFailsTheAttemptNamingIt() {
		long id = storedPayload("{\"name\": \"Ada\", \"count\": 1, \"nickname\": \"A\"}");

		fixture.startRuntime();

		awaitState(id, JobState.dead);
		assertThat(fixture.job(id).lastError()).contains("does not fit " + Greeting.class.getName())
			.contains("\"nickname\"");
		assertThat(received).isEmpty();
	}

	@Test
	void aStoredPayloadWithAPropertyTheTypeLacksRunsWhenTheCheckIsTurnedOff() {
		long id = storedPayload("{\"name\": \"Ada\", \"count\": 1, \"nickname\": \"A\"}");

		fixture.startRuntime(QueueFixture.SETTINGS.toBuilder().failOnUnknownPayloadProperties(false).build(),
				new CountingListener());

		awaitState(id, JobState.succeeded);
		assertThat(received.get("greet")).isEqualTo(new Greeting("Ada", 1));
	}

	/** A job written by another application, one attempt: the enqueue check never saw it. */
	private long storedPayload(String json) {
		return fixture.store().enqueues().enqueue(new NewJob(RuntimeSettings.DEFAULT_QUEUE, "greet", json, 1, 5, null,
				Duration.ZERO, 1, null)).id();
	}

	private Object receive(Object payload, JobContext context) {
		received.put(context.kind(), payload);
		return null;
	}

	private void awaitState(long id, JobState state) {
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(state));
	}

	private void refusedInsideATransaction(ThrowingCallable refused, String message) {
		refusedInsideATransaction(refused, actual -> assertThat(actual).isEqualTo(message));
	}

	private void refusedInsideATransaction(ThrowingCallable refused, Consumer<String> message) {
		List<Long> kept = fixture.transactions().execute(status -> {
			long before = fixture.queue().enqueue("greet", new Greeting("before", 1));
			assertThatIllegalArgumentException().isThrownBy(refused).satisfies(ex -> message.accept(ex.getMessage()));
			long after = fixture.queue().enqueue("greet", new Greeting("after", 2));
			return List.of(before, after);
		});

		assertThat(fixture.jdbc().sql("SELECT id FROM jobqueue_job ORDER BY id").query(Long.class).list())
			.containsExactlyElementsOf(kept);
	}

	/** A record with a Greeting's fields: the wrong object passed by mistake. */
	record Farewell(String name, int count) {
	}
}
