package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.EnqueueResult;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ClaimedJob;
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
		assertThat(fixture.queue().enqueue("greet", new Greeting("Cy", 3), KEY)).isEqualTo(greet);
	}

	@Test
	void enqueueAllScopesKeysByKindAlsoWithinTheBatch() {
		long held = fixture.queue().enqueue("slow", new Greeting("Ada", 1), KEY);

		List<Long> ids = fixture.queue().enqueueAll(List.of(new NewJobRequest("greet", new Greeting("a", 1), KEY),
				new NewJobRequest("report", new Greeting("b", 2), KEY),
				new NewJobRequest("greet", new Greeting("c", 3), KEY),
				new NewJobRequest("slow", new Greeting("d", 4), KEY)));

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
			.withMessageContaining("enqueueUnique needs options with a uniqueKey");
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isZero();
	}

	@Test
	void theEnqueuedCountCountsInsertsOnly() {
		fixture.queue().enqueue("greet", new Greeting("Ada", 1), KEY);
		fixture.queue().enqueue("greet", new Greeting("Ada", 1), KEY);
		fixture.queue().enqueueUnique("greet", new Greeting("Ada", 1), KEY);
		fixture.queue().enqueueAll(List.of(new NewJobRequest("greet", new Greeting("a", 1), KEY),
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
}
