package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/** What the operator's retry of a dead job promises, on every database. */
public abstract class RetryDeadContractTest {

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
	void aDeadJobIsReadyAgainWithItsAttemptsReset() {
		long dead = deadJob(EnqueueOptions.defaults().uniqueKey("report-1"));

		assertThat(fixture.queue().retry(dead)).isTrue();

		assertThat(fixture.job(dead).state()).isEqualTo(JobState.ready);
		assertThat(fixture.job(dead).attempt()).isZero();
		assertThat(fixture.job(dead).finishedAt()).isNull();
	}

	@Test
	void aJobThatIsNotDeadIsNotRetried() {
		long ready = fixture.queue().enqueue("greet", new Greeting("Ada", 1));

		assertThat(fixture.queue().retry(ready)).isFalse();
		assertThat(fixture.queue().retry(999_999)).isFalse();
	}

	@Test
	void aDeadJobWhoseUniqueKeyANewerJobHoldsStaysDeadAndTheAnswerNamesTheHolder() {
		long dead = deadJob(EnqueueOptions.defaults().uniqueKey("report-2"));
		long holder = fixture.queue().enqueue("greet", new Greeting("Bob", 2), EnqueueOptions.defaults().uniqueKey("report-2"));

		Long after = fixture.transactions().execute(status -> {
			assertThatIllegalStateException().isThrownBy(() -> fixture.queue().retry(dead))
				.withMessage("job " + dead + " stays dead: its unique key is held by job " + holder
						+ "; retry it once that job no longer holds it");
			return fixture.queue().enqueue("greet", new Greeting("after", 3));
		});

		assertThat(fixture.job(dead).state()).isEqualTo(JobState.dead);
		assertThat(fixture.job(holder).state()).isEqualTo(JobState.ready);
		assertThat(fixture.job(after).state()).as("the caller's transaction went on").isEqualTo(JobState.ready);
	}

	@Test
	void onceTheHolderHasFinishedTheDeadJobCanBeRetried() {
		long dead = deadJob(EnqueueOptions.defaults().uniqueKey("report-3"));
		long holder = fixture.queue().enqueue("greet", new Greeting("Bob", 2), EnqueueOptions.defaults().uniqueKey("report-3"));
		fixture.queue().cancel(holder);

		assertThat(fixture.queue().retry(dead)).isTrue();
		assertThat(fixture.job(dead).state()).isEqualTo(JobState.ready);
	}

	private long deadJob(EnqueueOptions options) {
		long id = fixture.queue().enqueue("greet", new Greeting("Ada", 1), options.maxAttempts(1));
		ClaimedJob claimed = fixture.store().claims().claim("default", Map.of("greet", 1), 1, "retry-test", Duration.ofMinutes(1),
				false)
			.get(0);
		assertThat(claimed.id()).isEqualTo(id);
		assertThat(fixture.store().outcomes().fail(claimed.lease(), "boom")).isTrue();
		return id;
	}
}
