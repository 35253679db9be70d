package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.DuplicateJobException;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.EnqueueResult;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.Unique;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.TransitionSql;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * Unique keys are scoped by kind, on every database: a key held by a job of one kind never turns away a
 * job of another, and {@code enqueueUnique} says whether it inserted or found the holder.
 */
public abstract class UniqueKeyContractTest {

	private static final EnqueueOptions KEY = EnqueueOptions.defaults().uniqueKey("k2");

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
	void aKeyHeldByAJobOfAnotherKindDoesNotTurnAJobAway() {
		long slow = fixture.queue().enqueue("slow", new Greeting("Ada", 1), KEY);
		long greet = fixture.queue().enqueue("greet", new Greeting("Bob", 2), KEY);

		assertThat(greet).isNotEqualTo(slow);
		assertThat(fixture.job(greet).kind()).isEqualTo("greet");
		assertThat(fixture.job(greet).state()).isEqualTo(JobState.ready);
		assertThat(fixture.queue().enqueueUnique("greet", new Greeting("Cy", 3), KEY).id()).isEqualTo(greet);
	}

	@Test
	void enqueueAllScopesKeysByKindAlsoWithinTheBatch() {
		long held = fixture.queue().enqueue("slow", new Greeting("Ada", 1), KEY);

		List<Long> ids = fixture.queue()
			.enqueueAllUnique(List.of(new NewJobRequest("greet", new Greeting("a", 1), KEY),
					new NewJobRequest("report", new Greeting("b", 2), KEY),
					new NewJobRequest("greet", new Greeting("c", 3), KEY),
					new NewJobRequest("slow", new Greeting("d", 4), KEY)))
			.stream()
			.map(EnqueueResult::id)
			.toList();

		assertThat(ids.get(0)).isNotEqualTo(held);
		assertThat(ids.get(1)).isNotIn(held, ids.get(0));
		assertThat(ids.get(2)).isEqualTo(ids.get(0));
		assertThat(ids.get(3)).isEqualTo(held);
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isEqualTo(3);
	}

	@Test
	void enqueueUniqueSaysWhetherItInsertedOrFoundTheHolder() {
		EnqueueResult first = fixture.queue().enqueueUnique("greet", new Greeting("Ada", 1), KEY);
		EnqueueResult second = fixture.queue().enqueueUnique("greet", new Greeting("Bob", 2), KEY);
		EnqueueResult otherKind = fixture.queue().enqueueUnique("slow", new Greeting("Cy", 3), KEY);

		assertThat(first.inserted()).isTrue();
		assertThat(second).isEqualTo(new EnqueueResult(first.id(), false));
		assertThat(second.duplicate()).isTrue();
		assertThat(otherKind.inserted()).isTrue();
		assertThat(otherKind.id()).isNotEqualTo(first.id());
	}

	@Test
	void enqueueUniqueWithoutAKeyIsRefusedAndWritesNothing() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> fixture.queue().enqueueUnique("greet", new Greeting("Ada", 1), EnqueueOptions.defaults()))
			.withMessageContaining("enqueueUnique needs options with a unique key");
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isZero();
	}

	@Test
	void theEnqueuedCountCountsInsertsOnly() {
		fixture.queue().enqueue("greet", new Greeting("Ada", 1), KEY);
		fixture.queue().enqueueUnique("greet", new Greeting("Ada", 1), KEY);
		assertThatThrownBy(() -> fixture.queue().enqueue("greet", new Greeting("Ada", 1), KEY))
			.isInstanceOf(DuplicateJobException.class);
		assertThatThrownBy(() -> fixture.queue().enqueueAll(List.of(new NewJobRequest("report", new Greeting("r", 1), KEY),
				new NewJobRequest("greet", new Greeting("g", 2), KEY))))
			.isInstanceOf(DuplicateJobException.class);
		fixture.queue().enqueueAllUnique(List.of(new NewJobRequest("greet", new Greeting("a", 1), KEY),
				new NewJobRequest("greet", new Greeting("b", 2)), new NewJobRequest("slow", new Greeting("c", 3), KEY)));

		assertThat(fixture.enqueues().enqueued()).isEqualTo(3);
	}

	@Test
	void aDeadJobIsRetriedWhileAJobOfAnotherKindHoldsItsKey() {
		long dead = fixture.queue().enqueue("greet", new Greeting("Ada", 1), KEY.maxAttempts(1));
		ClaimedJob claimed = fixture.store()
			.claims().claim("default", Map.of("greet", 1), 1, "worker", Duration.ofMinutes(1), false)
			.get(0);
		fixture.store().outcomes().fail(claimed.lease(), "boom");
		long other = fixture.queue().enqueue("slow", new Greeting("Bob", 2), KEY);

		assertThat(fixture.store().reads().holderOfUniqueKey(dead)).isEmpty();
		assertThat(fixture.queue().retry(dead)).isTrue();
		assertThat(fixture.job(dead).state()).isEqualTo(JobState.ready);
		assertThat(fixture.job(other).state()).isEqualTo(JobState.ready);
	}

	/**
	 * The table of cases: a job that held its key also in some finished states ends in each finished state; a new job
	 * of the key is a duplicate exactly when the first one's states name the state it ended in. Unfinished jobs always
	 * hold it.
	 */
	@Test
	void aFinishedJobHoldsItsKeyExactlyInTheFinishedStatesItWasEnqueuedWith() {
		List<List<JobState>> choices = List.of(List.of(), List.of(JobState.succeeded), List.of(JobState.dead),
				List.of(JobState.cancelled), List.of(JobState.succeeded, JobState.dead, JobState.cancelled));
		int n = 0;
		for (List<JobState> held : choices) {
			for (JobState end : List.of(JobState.succeeded, JobState.dead, JobState.cancelled)) {
				String queue = "case-" + n++;
				Unique unique = Unique.byKey(queue).alsoFinished(held.toArray(JobState[]::new));
				EnqueueOptions options = EnqueueOptions.defaults().queue(queue).maxAttempts(1).unique(unique);
				long first = fixture.queue().enqueue("greet", new Greeting("first", 1), options);
				assertThat(fixture.queue().enqueueUnique("greet", new Greeting("ready", 2), options).holderId())
					.as("ready, holding %s", held).hasValue(first);
				end(queue, first, end);

				EnqueueResult again = fixture.queue().enqueueUnique("greet", new Greeting("again", 3),
						EnqueueOptions.defaults().queue(queue).uniqueKey(queue));

				assertThat(fixture.job(first).state()).isEqualTo(end);
				assertThat(again.duplicate()).as("%s, holding %s", end, held).isEqualTo(held.contains(end));
				assertThat(again.duplicate() ? again.id() : first).isEqualTo(first);
			}
		}
	}

	@Test
	void aRunningJobHoldsItsKey() {
		EnqueueOptions options = EnqueueOptions.defaults().queue("running").unique(Unique.byKey("r"));
		long first = fixture.queue().enqueue("greet", new Greeting("first", 1), options);
		claim("running");

		assertThat(fixture.queue().enqueueUnique("greet", new Greeting("again", 2), options).holderId())
			.hasValue(first);
	}

	@Test
	void aDeadJobThatHoldsItsKeyWhileDeadIsRetriedAndOneThatDoesNotStaysDeadBesideASucceededHolder() {
		EnqueueOptions holdsDead = EnqueueOptions.defaults().queue("dead").maxAttempts(1)
			.unique(Unique.byKey("d").alsoFinished(JobState.dead));
		long dead = fixture.queue().enqueue("greet", new Greeting("dead", 1), holdsDead);
		end("dead", dead, JobState.dead);

		assertThat(fixture.store().reads().holderOfUniqueKey(dead)).isEmpty();
		assertThat(fixture.queue().retry(dead)).isTrue();
		assertThat(fixture.job(dead).state()).isEqualTo(JobState.ready);

		long plainDead = fixture.queue().enqueue("greet", new Greeting("plain", 2),
				EnqueueOptions.defaults().queue("plain").maxAttempts(1).uniqueKey("p"));
		end("plain", plainDead, JobState.dead);
		long succeeded = fixture.queue().enqueue("greet", new Greeting("succeeded", 3), EnqueueOptions.defaults()
			.queue("holder").unique(Unique.byKey("p").alsoFinished(JobState.succeeded)));
		end("holder", succeeded, JobState.succeeded);

		assertThat(fixture.store().reads().holderOfUniqueKey(plainDead)).hasValue(succeeded);
		assertThatThrownBy(() -> fixture.queue().retry(plainDead)).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("held by job " + succeeded);
		assertThat(fixture.job(plainDead).state()).isEqualTo(JobState.dead);
		assertThat(fixture.store().writes().retryDeadAll(List.of(plainDead))).isEmpty();
	}

	@Test
	void aPeriodMakesJobsDueInOtherBucketsDistinctAndIsShownInTheStoredKey() {
		Instant tenOClock = Instant.parse("2030-05-01T10:00:00Z");
		Unique hourly = Unique.byKey("digest").per(Duration.ofHours(1));
		EnqueueResult first = fixture.queue().enqueueUnique("greet", new Greeting("a", 1),
				EnqueueOptions.defaults().runAt(tenOClock.plusSeconds(60)).unique(hourly));
		EnqueueResult sameHour = fixture.queue().enqueueUnique("greet", new Greeting("b", 2),
				EnqueueOptions.defaults().runAt(tenOClock.plusSeconds(3599)).unique(hourly));
		EnqueueResult nextHour = fixture.queue().enqueueUnique("greet", new Greeting("c", 3),
				EnqueueOptions.defaults().runAt(tenOClock.plusSeconds(3600)).unique(hourly));
		EnqueueResult noPeriod = fixture.queue().enqueueUnique("greet", new Greeting("d", 4),
				EnqueueOptions.defaults().runAt(tenOClock.plusSeconds(60)).uniqueKey("digest"));

		assertThat(first.inserted()).isTrue();
		assertThat(sameHour).isEqualTo(new EnqueueResult(first.id(), false));
		assertThat(nextHour.inserted()).isTrue();
		assertThat(noPeriod.inserted()).isTrue();
		assertThat(fixture.job(first.id()).uniqueKey()).isEqualTo("digest@2030-05-01T10:00:00Z");
		assertThat(fixture.job(nextHour.id()).uniqueKey()).isEqualTo("digest@2030-05-01T11:00:00Z");
	}

	@Test
	void byPayloadComparesTheChosenFieldsWhateverTheirOrderAndRefusesAFieldThePayloadLacks() {
		Unique byCustomer = Unique.byPayload("customer");
		EnqueueOptions options = EnqueueOptions.defaults().unique(byCustomer);
		EnqueueResult first = fixture.queue().enqueueUnique("greet", Map.of("customer", 7, "note", "a"), options);
		EnqueueResult sameCustomer = fixture.queue().enqueueUnique("greet", Map.of("note", "b", "customer", 7), options);
		EnqueueResult otherCustomer = fixture.queue().enqueueUnique("greet", Map.of("customer", 8, "note", "a"), options);
		EnqueueOptions whole = EnqueueOptions.defaults().unique(Unique.byPayload());
		EnqueueResult wholeFirst = fixture.queue().enqueueUnique("slow",
				Map.of("a", Map.of("x", 1, "y", List.of(1, 2)), "b", "z"), whole);
		EnqueueResult wholeAgain = fixture.queue().enqueueUnique("slow",
				Map.of("b", "z", "a", Map.of("y", List.of(1, 2), "x", 1)), whole);
		EnqueueResult wholeOther = fixture.queue().enqueueUnique("slow",
				Map.of("b", "z", "a", Map.of("y", List.of(2, 1), "x", 1)), whole);

		assertThat(first.inserted()).isTrue();
		assertThat(sameCustomer).isEqualTo(new EnqueueResult(first.id(), false));
		assertThat(otherCustomer.inserted()).isTrue();
		assertThat(fixture.job(first.id()).uniqueKey()).startsWith("payload:").hasSize("payload:".length() + 64);
		assertThat(wholeFirst.inserted()).isTrue();
		assertThat(wholeAgain).isEqualTo(new EnqueueResult(wholeFirst.id(), false));
		assertThat(wholeOther.inserted()).isTrue();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> fixture.queue().enqueueUnique("greet", Map.of("customr", 7), options))
			.withMessageContaining("no field 'customer'");
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isEqualTo(4);
	}

	@Test
	void enqueuersRacingOnAKeyHeldWhileSucceededInsertOneJob() throws Exception {
		EnqueueOptions options = EnqueueOptions.defaults()
			.unique(Unique.byKey("race").alsoFinished(JobState.succeeded));
		ExecutorService pool = Executors.newFixedThreadPool(8);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<EnqueueResult>> results = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				int n = i;
				results.add(pool.submit(() -> {
					start.await();
					return fixture.queue().enqueueUnique("greet", new Greeting("racer", n), options);
				}));
			}
			start.countDown();
			List<EnqueueResult> outcomes = new ArrayList<>();
			for (Future<EnqueueResult> result : results) {
				outcomes.add(result.get(30, TimeUnit.SECONDS));
			}

			assertThat(outcomes).filteredOn(EnqueueResult::inserted).hasSize(1);
			assertThat(outcomes).extracting(EnqueueResult::id).containsOnly(outcomes.stream()
				.filter(EnqueueResult::inserted).findFirst().orElseThrow().id());
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void aWorkflowsJobWithAKeyHeldOnceSucceededIsWrittenWithItsStatesAndItsDependentsMark() {
		Map<String, Long> ids = fixture.queue().workflow()
			.add("export", "greet", new Greeting("export", 1), EnqueueOptions.defaults()
				.unique(Unique.byKey("export").alsoFinished(JobState.succeeded)))
			.add("notify", "greet", new Greeting("notify", 2), "export")
			.enqueue();

		assertThat(fixture.jdbc().sql("SELECT has_dependents FROM jobqueue_job WHERE id = :id")
			.param("id", ids.get("export")).query(Boolean.class).single()).isTrue();
		assertThat(fixture.jdbc().sql("SELECT unique_states FROM jobqueue_job WHERE id = :id")
			.param("id", ids.get("export")).query(Integer.class).single())
			.isEqualTo(TransitionSql.uniqueStates(List.of(JobState.succeeded)));
		assertThat(fixture.jdbc().sql("SELECT unique_states FROM jobqueue_job WHERE id = :id")
			.param("id", ids.get("notify")).query(Integer.class).optional()).isEmpty();
		assertThat(fixture.queue().enqueueUnique("greet", new Greeting("again", 3),
				EnqueueOptions.defaults().uniqueKey("export")).holderId()).hasValue(ids.get("export"));
	}

	@Test
	void badUniqueOptionsAreRefusedNamingTheOption() {
		assertThatIllegalArgumentException().isThrownBy(() -> Unique.byKey("k").alsoFinished(JobState.ready))
			.withMessageContaining("uniqueStates");
		assertThatIllegalArgumentException().isThrownBy(() -> Unique.byKey("k").per(Duration.ofMillis(1500)))
			.withMessageContaining("uniquePeriod");
		assertThatIllegalArgumentException().isThrownBy(() -> Unique.byPayload("a", " "))
			.withMessageContaining("uniqueFields");
		assertThatIllegalArgumentException().isThrownBy(() -> Unique.byKey(""))
			.withMessageContaining("uniqueKey");
	}

	private void end(String queue, long id, JobState end) {
		if (end == JobState.cancelled) {
			assertThat(fixture.queue().cancel(id)).isTrue();
			return;
		}
		ClaimedJob claimed = claim(queue);
		assertThat(claimed.id()).isEqualTo(id);
		if (end == JobState.succeeded) {
			assertThat(fixture.store().outcomes().complete(claimed.lease(), null)).isTrue();
		}
		else {
			assertThat(fixture.store().outcomes().fail(claimed.lease(), "boom")).isTrue();
		}
	}

	private ClaimedJob claim(String queue) {
		return fixture.store()
			.claims().claim(queue, Map.of("greet", 1), 1, "worker", Duration.ofMinutes(1), false)
			.get(0);
	}
}
