package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.EnqueueResult;
import dev.jobqueue.JobArgs;
import dev.jobqueue.JobKind;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * Payloads that name their own kind, and results read back as a type, on every database.
 */
public abstract class TypedJobsContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

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
	void aPayloadThatNamesItsKindIsEnqueuedWithoutAKindString() {
		long annotated = fixture.queue().enqueue(new SendMail("ada@example.com"));
		long overridden = fixture.queue().enqueue(new Ping(3), EnqueueOptions.defaults().priority(1));
		EnqueueResult unique = fixture.queue().enqueueUnique(new SendMail("bob@example.com"),
				EnqueueOptions.defaults().uniqueKey("bob"));
		List<Long> batch = fixture.queue().enqueueAll(List.of(new NewJobRequest(new SendMail("cy@example.com")),
				new NewJobRequest(new Ping(4), EnqueueOptions.defaults().queue("pings"))));

		assertThat(fixture.job(annotated).kind()).isEqualTo("send-mail");
		assertThat(fixture.job(overridden).kind()).isEqualTo("ping");
		assertThat(fixture.job(overridden).priority()).isEqualTo(1);
		assertThat(fixture.job(unique.id()).kind()).isEqualTo("send-mail");
		assertThat(fixture.job(batch.get(0)).kind()).isEqualTo("send-mail");
		assertThat(fixture.job(batch.get(1)).queue()).isEqualTo("pings");
	}

	@Test
	void aPayloadThatNamesNoKindIsRefusedSayingHowToNameOne() {
		assertThatIllegalStateException().isThrownBy(() -> fixture.queue().enqueue(new Nameless("x")))
			.withMessage(Nameless.class.getName()
					+ " implements JobArgs but names no kind: annotate it @JobKind(\"…\") or override kind()");
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isZero();
	}

	@Test
	void aResultIsReadBackAsATypeThroughTheMapper() {
		fixture.handle("send-mail", SendMail.class, (mail, context) -> new Receipt(mail.to(), 2, List.of("a", "b")));
		long id = fixture.queue().enqueue(new SendMail("ada@example.com"));

		assertThat(fixture.queue().result(id, Receipt.class)).isEmpty();
		fixture.startRuntime();
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(JobState.succeeded));

		assertThat(fixture.queue().result(id, Receipt.class)).contains(new Receipt("ada@example.com", 2, List.of("a", "b")));
		assertThat(fixture.queue().result(id, Map.class)).hasValueSatisfying(map -> assertThat(map).containsEntry("parts", 2));
		assertThat(fixture.queue().result(999_999, Receipt.class)).isEmpty();
	}

	@Test
	void aResultThatDoesNotBindToTheTypeAskedForIsRefusedNamingIt() {
		fixture.handle("send-mail", SendMail.class, (mail, context) -> List.of(1, 2));
		long id = fixture.queue().enqueue(new SendMail("ada@example.com"));
		fixture.startRuntime();
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(JobState.succeeded));

		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().result(id, Receipt.class))
			.withMessageStartingWith("result of job " + id + " (send-mail) does not bind to " + Receipt.class.getName());
	}

	@Test
	void aHandlerThatReturnsNothingHasNoResult() {
		fixture.handle("send-mail", SendMail.class, (mail, context) -> null);
		long id = fixture.queue().enqueue(new SendMail("ada@example.com"));
		fixture.startRuntime();
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(JobState.succeeded));

		assertThat(fixture.queue().result(id, Receipt.class)).isEmpty();
	}

	@JobKind("send-mail")
	record SendMail(String to) implements JobArgs {
	}

	/** Names its kind in code rather than with the annotation. */
	record Ping(int count) implements JobArgs {

		@Override
		public String kind() {
			return "ping";
		}
	}

	record Nameless(String value) implements JobArgs {
	}

	record Receipt(String to, int parts, List<String> ids) {
	}
}
