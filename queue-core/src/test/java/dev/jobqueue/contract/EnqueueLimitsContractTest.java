package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * Input that no database of the queue could store is refused before any SQL, naming the option, and
 * the caller's transaction goes on: the job enqueued before the refusal and the one after both commit.
 * On PostgreSQL a statement that fails aborts the whole transaction, so refusing early is the only way
 * to keep the caller's work.
 */
public abstract class EnqueueLimitsContractTest {

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
	void aUniqueKeyTooLongForTheIndexIsRefusedAndTheCallersTransactionGoesOn() {
		String key = incompressible(3_000);

		refusedInsideATransaction(() -> fixture.queue().enqueue("greet", greeting(), EnqueueOptions.defaults().uniqueKey(key)),
				"uniqueKey must be at most 1024 bytes of UTF-8, was 3000");
	}

	@Test
	void aUniqueKeyIsMeasuredInBytesNotCharacters() {
		String key = "\u00e9".repeat(600);

		refusedInsideATransaction(() -> fixture.queue().enqueue("greet", greeting(), EnqueueOptions.defaults().uniqueKey(key)),
				"uniqueKey must be at most 1024 bytes of UTF-8, was 1200");
		String longest = "k".repeat(EnqueueOptions.MAX_UNIQUE_KEY_BYTES);
		long id = fixture.queue().enqueue("greet", greeting(), EnqueueOptions.defaults().uniqueKey(longest));
		assertThat(fixture.job(id).uniqueKey()).isEqualTo(longest);
	}

	@Test
	void aUniqueKeyHoldingNulIsRefusedAndTheCallersTransactionGoesOn() {
		refusedInsideATransaction(
				() -> fixture.queue().enqueue("greet", greeting(), EnqueueOptions.defaults().uniqueKey("a\u0000b")),
				"uniqueKey must not hold the character U+0000");
	}

	@Test
	void aKindHoldingNulIsRefusedAndTheCallersTransactionGoesOn() {
		refusedInsideATransaction(() -> fixture.queue().enqueue("gre\u0000et", greeting()),
				"kind must not hold the character U+0000");
	}

	@Test
	void aPayloadHoldingNulIsRefusedAndTheCallersTransactionGoesOn() {
		refusedInsideATransaction(() -> fixture.queue().enqueue("greet", new Greeting("A\u0000da", 1)),
				"payload of kind 'greet' holds the character U+0000, which PostgreSQL cannot store in JSON");
	}

	@Test
	void aPayloadWithNulInAPropertyNameIsRefusedToo() {
		refusedInsideATransaction(() -> fixture.queue().enqueue("greet", Map.of("na\u0000me", "Ada")),
				"payload of kind 'greet' holds the character U+0000, which PostgreSQL cannot store in JSON");
	}

	@Test
	void aPayloadOverTheMaximumIsRefusedNamingThePropertyToRaise() {
		String text = "x".repeat(RuntimeSettings.DEFAULT_MAX_PAYLOAD_LENGTH);

		refusedInsideATransaction(() -> fixture.queue().enqueue("greet", text),
				"payload of kind 'greet' is 1048578 characters of JSON, over the max payload length "
						+ "(jobqueue.max-payload-length) of 1048576");
	}

	@Test
	void aPayloadSpellingOutABackslashAndU0000IsNoNulAndIsStoredExactly() {
		Greeting spelled = new Greeting("\\u0000 and \\\\u0000", 1);

		long id = fixture.queue().enqueue("greet", spelled);

		assertThat(QueueFixture.JSON.readValue(fixture.job(id).payload(), Greeting.class)).isEqualTo(spelled);
	}

	@Test
	void aRunAtAfterTheLatestIsRefusedAndTheCallersTransactionGoesOn() {
		refusedInsideATransaction(
				() -> fixture.queue().enqueue("greet", greeting(), EnqueueOptions.defaults().runAt(Instant.parse("+300000-01-01T00:00:00Z"))),
				"runAt must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, was +300000-01-01T00:00:00Z");
	}

	@Test
	void aRunAtBeforeTheEarliestIsRefusedAndTheCallersTransactionGoesOn() {
		refusedInsideATransaction(
				() -> fixture.queue().enqueue("greet", greeting(), EnqueueOptions.defaults().runAt(Instant.parse("-5000-01-01T00:00:00Z"))),
				"runAt must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, was -5000-01-01T00:00:00Z");
	}

	@Test
	void aDelayLongerThanTheLongestIsRefusedAndTheCallersTransactionGoesOn() {
		refusedInsideATransaction(
				() -> fixture.queue().enqueue("greet", greeting(), EnqueueOptions.defaults().delay(Duration.ofDays(365L * 300_000))),
				"delay must be at most PT8760000H (1000 years), was PT2628000000H");
	}

	@Test
	void aDelayThatOverflowsMillisecondsIsRefusedAndTheCallersTransactionGoesOn() {
		refusedInsideATransaction(
				() -> fixture.queue().enqueue("greet", greeting(), EnqueueOptions.defaults().delay(Duration.ofSeconds(Long.MAX_VALUE))),
				"delay must be at most PT8760000H (1000 years), was PT2562047788015215H30M7S");
	}

	@Test
	void theLimitsThemselvesAreStoredExactlyByEnqueueAndEnqueueAll() {
		EnqueueOptions earliest = EnqueueOptions.defaults().runAt(EnqueueOptions.EARLIEST_RUN_AT);
		EnqueueOptions latest = EnqueueOptions.defaults().runAt(EnqueueOptions.LATEST_RUN_AT);
		EnqueueOptions longest = EnqueueOptions.defaults().delay(EnqueueOptions.MAX_DELAY);
		Instant before = Instant.now();

		List<Long> ids = List.of(fixture.queue().enqueue("greet", greeting(), earliest),
				fixture.queue().enqueue("greet", greeting(), latest));
		List<Long> batch = fixture.queue().enqueueAll(List.of(new NewJobRequest("greet", greeting(), earliest),
				new NewJobRequest("greet", greeting(), latest), new NewJobRequest("greet", greeting(), longest)));
		long delayed = fixture.queue().enqueue("greet", greeting(), longest);

		assertThat(fixture.job(ids.get(0)).runAt()).isEqualTo(EnqueueOptions.EARLIEST_RUN_AT);
		assertThat(fixture.job(ids.get(1)).runAt()).isEqualTo(EnqueueOptions.LATEST_RUN_AT);
		assertThat(fixture.job(batch.get(0)).runAt()).isEqualTo(EnqueueOptions.EARLIEST_RUN_AT);
		assertThat(fixture.job(batch.get(1)).runAt()).isEqualTo(EnqueueOptions.LATEST_RUN_AT);
		assertThat(fixture.job(batch.get(2)).runAt()).isAfter(before.plus(EnqueueOptions.MAX_DELAY).minusSeconds(5));
		assertThat(fixture.job(delayed).runAt()).isAfter(before.plus(EnqueueOptions.MAX_DELAY).minusSeconds(5));
	}

	/**
	 * Runs the refused enqueue between two good ones in one transaction, and checks that it threw the
	 * message and that the transaction still committed both good jobs.
	 */
	private void refusedInsideATransaction(ThrowingCallable refused, String message) {
		List<Long> kept = fixture.transactions().execute(status -> {
			long before = fixture.queue().enqueue("greet", new Greeting("before", 1));
			assertThatIllegalArgumentException().isThrownBy(refused).withMessage(message);
			long after = fixture.queue().enqueue("greet", new Greeting("after", 2));
			return List.of(before, after);
		});

		assertThat(fixture.jdbc().sql("SELECT id FROM jobqueue_job ORDER BY id").query(Long.class).list())
			.containsExactlyElementsOf(kept);
	}

	/** Random letters: PostgreSQL compresses a repetitive key until it fits its index, these it cannot. */
	private static String incompressible(int length) {
		SplittableRandom random = new SplittableRandom(13);
		StringBuilder key = new StringBuilder(length);
		random.ints(length, 'a', 'z' + 1).forEach(c -> key.append((char) c));
		return key.toString();
	}

	private static Greeting greeting() {
		return new Greeting("Ada", 1);
	}
}
