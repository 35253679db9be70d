package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/** What enqueueing promises, on every database. */
public abstract class EnqueueContractTest {

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
	void anEnqueuedJobIsReadyWithItsPayloadAndOptions() {
		long id = fixture.queue().enqueue("greet", new Greeting("Ada", 2),
				EnqueueOptions.defaults().queue("mail").priority(1).maxAttempts(4));

		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.ready);
		assertThat(job.queue()).isEqualTo("mail");
		assertThat(job.kind()).isEqualTo("greet");
		assertThat(job.priority()).isEqualTo(1);
		assertThat(job.maxAttempts()).isEqualTo(4);
		assertThat(job.attempt()).isZero();
		assertThat(QueueFixture.JSON.readValue(job.payload(), Greeting.class)).isEqualTo(new Greeting("Ada", 2));
		assertThat(job.createdAt()).isNotNull();
	}

	@Test
	void aDelayIsAddedToTheStoresClock() {
		Instant before = Instant.now().minusSeconds(5);
		long id = fixture.queue().enqueue("greet", new Greeting("Ada", 1),
				EnqueueOptions.defaults().delay(Duration.ofHours(1)));

		assertThat(fixture.job(id).runAt()).isAfter(before.plus(Duration.ofHours(1)));
	}

	@Test
	void aSecondJobWithAnUnfinishedJobsUniqueKeyReturnsTheFirstIdAndInsertsNothing() {
		EnqueueOptions unique = EnqueueOptions.defaults().uniqueKey("report-42");
		long first = fixture.queue().enqueue("greet", new Greeting("Ada", 1), unique);
		long second = fixture.queue().enqueue("greet", new Greeting("Bob", 2), unique);

		assertThat(second).isEqualTo(first);
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isEqualTo(1);
		assertThat(fixture.job(first).payload()).contains("Ada");
	}

	@Test
	void aFinishedJobFreesItsUniqueKey() {
		EnqueueOptions unique = EnqueueOptions.defaults().uniqueKey("report-43");
		long first = fixture.queue().enqueue("greet", new Greeting("Ada", 1), unique);
		fixture.queue().cancel(first);

		assertThat(fixture.queue().enqueue("greet", new Greeting("Ada", 1), unique)).isNotEqualTo(first);
	}

	@Test
	void enqueueAllReturnsIdsInTheOrderGivenAndHonoursUniqueKeys() {
		long existing = fixture.queue().enqueue("greet", new Greeting("Old", 0),
				EnqueueOptions.defaults().uniqueKey("k-2"));
		List<NewJobRequest> requests = IntStream.range(0, 5)
			.mapToObj(i -> new NewJobRequest("greet", new Greeting("n" + i, i),
					i == 2 ? EnqueueOptions.defaults().uniqueKey("k-2") : EnqueueOptions.defaults().priority(i)))
			.toList();

		List<Long> ids = fixture.queue().enqueueAll(requests);

		assertThat(ids).hasSize(5).doesNotHaveDuplicates();
		assertThat(ids.get(2)).isEqualTo(existing);
		for (int i = 0; i < 5; i++) {
			if (i != 2) {
				assertThat(fixture.job(ids.get(i)).payload()).contains("\"n" + i + "\"");
			}
		}
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isEqualTo(5);
	}

	@Test
	void aRolledBackTransactionLeavesNoJob() {
		fixture.transactions().executeWithoutResult(status -> {
			fixture.queue().enqueue("greet", new Greeting("Ada", 1));
			status.setRollbackOnly();
		});

		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isZero();
	}

	@Test
	void aCommittedTransactionKeepsItsJob() {
		Long id = fixture.transactions().execute(status -> fixture.queue().enqueue("greet", new Greeting("Ada", 1)));

		assertThat(fixture.state(id)).isEqualTo(JobState.ready);
	}

	@Test
	void anUnknownKindIsRefusedBeforeAnySqlAndTheCallersTransactionGoesOn() {
		fixture.handle("greet", Greeting.class, (greeting, context) -> null);

		Long kept = fixture.transactions().execute(status -> {
			assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().enqueue("gret", new Greeting("Ada", 1)))
				.withMessage("kind 'gret' is unknown: no handler here serves it (kinds: greet); "
						+ "declare kinds that other applications handle as external kinds");
			return fixture.queue().enqueue("greet", new Greeting("Ada", 1));
		});

		assertThat(fixture.jdbc().sql("SELECT id FROM jobqueue_job").query(Long.class).list()).containsExactly(kept);
	}

	@Test
	void aKindDeclaredExternalIsEnqueuedForAnotherApplicationToRun() {
		fixture.handle("greet", Greeting.class, (greeting, context) -> null);
		fixture.declareExternal("render-invoice");

		long id = fixture.queue().enqueue("render-invoice", new Greeting("Ada", 1));

		assertThat(fixture.job(id).kind()).isEqualTo("render-invoice");
	}

	@Test
	void aCancelledJobIsNeverClaimed() {
		long id = fixture.queue().enqueue("greet", new Greeting("Ada", 1));

		assertThat(fixture.queue().cancel(id)).isTrue();
		assertThat(fixture.queue().cancel(id)).isFalse();
		assertThat(fixture.state(id)).isEqualTo(JobState.cancelled);
		assertThat(fixture.job(id).finishedAt()).isNotNull();
		assertThat(fixture.store().claim("default", 10, "w", Duration.ofSeconds(30))).isEmpty();
	}

	@Test
	void aPayloadThatCannotBeWrittenAsJsonIsRefusedAndWritesNothing() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> fixture.queue().enqueue("greet", new Unwritable()))
			.withMessageContaining("payload of kind 'greet' cannot be written as JSON");
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isZero();
	}

	@Test
	void invalidOptionsAreRefusedNamingTheOption() {
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().enqueue(" ", "x"))
			.withMessageStartingWith("kind");
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueOptions.defaults().maxAttempts(0))
			.withMessageStartingWith("maxAttempts");
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueOptions.defaults().priority(10))
			.withMessageStartingWith("priority");
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueOptions.defaults().delay(Duration.ofSeconds(-1)))
			.withMessageStartingWith("delay");
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueOptions.defaults().queue(""))
			.withMessageStartingWith("queue");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EnqueueOptions.defaults().queue("mail'; DROP TABLE jobqueue_job; --"))
			.withMessage("queue must match [A-Za-z0-9_.-]{1,100}, was 'mail'; DROP TABLE jobqueue_job; --'");
	}

	/** A payload whose only property cannot be read. */
	static final class Unwritable {

		public String getValue() {
			throw new UnsupportedOperationException("not JSON");
		}
	}
}
