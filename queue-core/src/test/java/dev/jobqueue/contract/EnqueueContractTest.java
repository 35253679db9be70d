package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.DuplicateJobException;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.EnqueueResult;
import dev.jobqueue.Job;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.store.NewJob;
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

	/**
	 * The store's bulk insert marks the jobs that others run after as its single insert does, with or without a unique
	 * key, and leaves the others unmarked, in one call that mixes them.
	 */
	@Test
	void manyJobsAtOnceAreMarkedAsDependedOnAsOneAtATimeWouldBe() {
		List<NewJob> jobs = List.of(newJob(null, false), newJob(null, true), newJob(null, true), newJob("k-a", true),
				newJob("k-b", false), newJob(null, false));

		List<Long> ids = fixture.store().enqueues().enqueueAll(jobs).stream().map(EnqueueResult::id).toList();

		assertThat(ids).hasSize(6);
		assertThat(fixture.jdbc().sql("SELECT id FROM jobqueue_job WHERE has_dependents ORDER BY id")
			.query(Long.class)
			.list()).containsExactly(ids.get(1), ids.get(2), ids.get(3));
	}

	private static NewJob newJob(String uniqueKey, boolean hasDependents) {
		return new NewJob("default", "greet", "{\"name\":\"Ada\",\"count\":1}", 1, 5, null, Duration.ZERO, 3,
				uniqueKey).withDependencies(new NewJob.Dependencies(List.of(), true, hasDependents));
	}

	@Test
	void aDelayIsAddedToTheStoresClock() {
		Instant before = Instant.now().minusSeconds(5);
		long id = fixture.queue().enqueue("greet", new Greeting("Ada", 1),
				EnqueueOptions.defaults().delay(Duration.ofHours(1)));

		assertThat(fixture.job(id).runAt()).isAfter(before.plus(Duration.ofHours(1)));
	}

	@Test
	void aSecondJobWithAHeldUniqueKeyIsRefusedByEnqueueAndNamedByEnqueueUniqueWritingNothing() {
		EnqueueOptions unique = EnqueueOptions.defaults().uniqueKey("report-42");
		long first = fixture.queue().enqueue("greet", new Greeting("Ada", 1), unique);

		assertThatThrownBy(() -> fixture.queue().enqueue("greet", new Greeting("Bob", 2), unique))
			.isInstanceOfSatisfying(DuplicateJobException.class, duplicate -> {
				assertThat(duplicate.holderId()).isEqualTo(first);
				assertThat(duplicate.uniqueKey()).isEqualTo("report-42");
			});
		assertThat(fixture.queue().enqueueUnique("greet", new Greeting("Cy", 3), unique))
			.isEqualTo(new EnqueueResult(first, false));
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isEqualTo(1);
		assertThat(fixture.job(first).payload()).contains("Ada");
	}

	@Test
	void enqueueAllWithAHeldUniqueKeyWritesNoneOfItsJobs() {
		long existing = fixture.queue().enqueue("greet", new Greeting("Old", 0),
				EnqueueOptions.defaults().uniqueKey("taken"));
		List<NewJobRequest> requests = List.of(new NewJobRequest("greet", new Greeting("a", 0)),
				new NewJobRequest("greet", new Greeting("b", 1), EnqueueOptions.defaults().uniqueKey("fresh")),
				new NewJobRequest("greet", new Greeting("c", 2), EnqueueOptions.defaults().uniqueKey("taken")));

		assertThatThrownBy(() -> fixture.queue().enqueueAll(requests))
			.isInstanceOfSatisfying(DuplicateJobException.class,
					duplicate -> assertThat(duplicate.holderId()).isEqualTo(existing));
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isEqualTo(1);
		assertThat(fixture.queue().enqueueAll(requests.subList(0, 2))).hasSize(2);
	}

	@Test
	void aFinishedJobFreesItsUniqueKey() {
		EnqueueOptions unique = EnqueueOptions.defaults().uniqueKey("report-43");
		long first = fixture.queue().enqueue("greet", new Greeting("Ada", 1), unique);
		fixture.queue().cancel(first);

		assertThat(fixture.queue().enqueue("greet", new Greeting("Ada", 1), unique)).isNotEqualTo(first);
	}

	@Test
	void enqueueAllUniqueReturnsIdsInTheOrderGivenAndHonoursUniqueKeys() {
		long existing = fixture.queue().enqueue("greet", new Greeting("Old", 0),
				EnqueueOptions.defaults().uniqueKey("k-2"));
		List<NewJobRequest> requests = IntStream.range(0, 5)
			.mapToObj(i -> new NewJobRequest("greet", new Greeting("n" + i, i),
					i == 2 ? EnqueueOptions.defaults().uniqueKey("k-2") : EnqueueOptions.defaults().priority(i)))
			.toList();

		List<Long> ids = fixture.queue().enqueueAllUnique(requests).stream().map(EnqueueResult::id).toList();

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
	void enqueueAllWritesAwkwardTextExactly() {
		List<String> names = List.of("tab\there", "line\nbreak\r\nand return\r", "back\\slash \\N \\. \\t",
				"\\N", "\\", "quotes \" ' `", "Grüße, 日本語, emoji \uD83D\uDE00", "", "{\"json\": [1, \"x\"]}");
		String kind = "kind\twith\\awkward\ntext";
		List<NewJobRequest> requests = names.stream()
			.map(name -> new NewJobRequest(kind, new Greeting(name, name.length()),
					EnqueueOptions.defaults().queue("odd.queue-name_1")))
			.toList();

		List<Long> ids = fixture.queue().enqueueAll(requests);

		for (int i = 0; i < names.size(); i++) {
			Job job = fixture.job(ids.get(i));
			assertThat(QueueFixture.JSON.readValue(job.payload(), Greeting.class))
				.isEqualTo(new Greeting(names.get(i), names.get(i).length()));
			assertThat(job.kind()).isEqualTo(kind);
			assertThat(job.queue()).isEqualTo("odd.queue-name_1");
		}
	}

	@Test
	void enqueueAllUniqueMixingUniqueKeysReturnsIdsInInputOrderAndDedupesAlsoWithinTheBatch() {
		long existing = fixture.queue().enqueue("greet", new Greeting("Old", 0),
				EnqueueOptions.defaults().uniqueKey("taken"));
		List<NewJobRequest> requests = List.of(
				new NewJobRequest("greet", new Greeting("a", 0)),
				new NewJobRequest("greet", new Greeting("b", 1), EnqueueOptions.defaults().uniqueKey("fresh")),
				new NewJobRequest("greet", new Greeting("c", 2)),
				new NewJobRequest("greet", new Greeting("d", 3), EnqueueOptions.defaults().uniqueKey("taken")),
				new NewJobRequest("greet", new Greeting("e", 4), EnqueueOptions.defaults().uniqueKey("fresh")),
				new NewJobRequest("greet", new Greeting("f", 5)));

		List<EnqueueResult> results = fixture.queue().enqueueAllUnique(requests);
		List<Long> ids = results.stream().map(EnqueueResult::id).toList();

		assertThat(ids.get(3)).isEqualTo(existing);
		assertThat(ids.get(4)).isEqualTo(ids.get(1));
		assertThat(results).extracting(EnqueueResult::duplicate).containsExactly(false, false, false, true, true, false);
		List<Long> inserted = List.of(ids.get(0), ids.get(1), ids.get(2), ids.get(5));
		assertThat(inserted).isSorted().doesNotHaveDuplicates().allMatch(id -> id > existing);
		for (int i : new int[] { 0, 1, 2, 5 }) {
			assertThat(QueueFixture.JSON.readValue(fixture.job(ids.get(i)).payload(), Greeting.class).count()).isEqualTo(i);
		}
		assertThat(fixture.job(ids.get(1)).uniqueKey()).isEqualTo("fresh");
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isEqualTo(5);
	}

	@Test
	void enqueueAllKeepsEachJobsOptionsAndTimes() {
		Instant runAt = Instant.now().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.MILLIS);
		Instant before = Instant.now().minusSeconds(5);
		List<Long> ids = fixture.queue().enqueueAll(List.of(
				new NewJobRequest("greet", new Greeting("now", 0), EnqueueOptions.defaults().priority(2).maxAttempts(7)),
				new NewJobRequest("greet", new Greeting("at", 1), EnqueueOptions.defaults().runAt(runAt).queue("mail")),
				new NewJobRequest("greet", new Greeting("later", 2), EnqueueOptions.defaults().delay(Duration.ofHours(1)))));

		Job now = fixture.job(ids.get(0));
		assertThat(now.priority()).isEqualTo(2);
		assertThat(now.maxAttempts()).isEqualTo(7);
		assertThat(now.runAt()).isBetween(before, Instant.now().plusSeconds(5));
		assertThat(fixture.job(ids.get(1)).runAt()).isEqualTo(runAt);
		assertThat(fixture.job(ids.get(1)).queue()).isEqualTo("mail");
		assertThat(fixture.job(ids.get(2)).runAt()).isBetween(now.runAt().plus(Duration.ofHours(1)),
				now.runAt().plus(Duration.ofHours(1)).plusSeconds(5));
	}

	@Test
	void enqueueAllOfMoreJobsThanAnyInternalChunkWritesEveryOne() {
		String filler = "x".repeat(100);
		List<NewJobRequest> requests = IntStream.range(0, 3000)
			.mapToObj(i -> new NewJobRequest("greet", new Greeting(filler + i, i)))
			.toList();

		List<Long> ids = fixture.queue().enqueueAll(requests);

		assertThat(ids).hasSize(3000).doesNotHaveDuplicates().isSorted();
		Map<Long, String> payloads = fixture.jdbc().sql("SELECT id, payload FROM jobqueue_job")
			.query((rs, n) -> Map.entry(rs.getLong(1), rs.getString(2)))
			.list()
			.stream()
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
		assertThat(payloads).hasSize(3000);
		for (int i = 0; i < 3000; i++) {
			assertThat(QueueFixture.JSON.readValue(payloads.get(ids.get(i)), Greeting.class))
				.isEqualTo(new Greeting(filler + i, i));
		}
	}

	@Test
	void enqueueAllInATransactionThatRollsBackLeavesNoJob() {
		fixture.transactions().executeWithoutResult(status -> {
			fixture.queue().enqueueAll(List.of(new NewJobRequest("greet", new Greeting("a", 1)),
					new NewJobRequest("greet", new Greeting("b", 2), EnqueueOptions.defaults().uniqueKey("k")),
					new NewJobRequest("greet", new Greeting("c", 3), EnqueueOptions.defaults().delay(Duration.ofMinutes(1)))));
			assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isEqualTo(3);
			status.setRollbackOnly();
		});

		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isZero();
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
		assertThat(fixture.store().claims().claim("default", Map.of("greet", 1), 10, "w", Duration.ofSeconds(30),
				false)).isEmpty();
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
