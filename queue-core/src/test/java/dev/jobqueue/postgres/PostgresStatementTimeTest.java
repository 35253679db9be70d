package dev.jobqueue.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.support.PostgresQueueFixture;
import dev.jobqueue.support.QueueFixture;

/**
 * Outcome writes that run inside a longer transaction stamp the time of their own statement, not the
 * transaction's start ({@code now()}): a transactional handler that ran for a while finished when its
 * completion was written.
 */
class PostgresStatementTimeTest {

	private static final Duration SLEEP = Duration.ofSeconds(1);

	@RegisterExtension
	static final PostgresQueueFixture postgres = new PostgresQueueFixture(32);

	private static QueueFixture fixture() {
		return postgres.fixture();
	}

	@Test
	void aTransactionalHandlersCompletionIsStampedWhenItIsWrittenNotWhenItsTransactionBegan() {
		AtomicReference<Instant> began = new AtomicReference<>();
		fixture().handle("slow-tx", Greeting.class, null, true, (greeting, context) -> {
			began.set(databaseTimeThenSleep());
			return null;
		});
		fixture().startRuntime();

		long id = fixture().queue().enqueue("slow-tx", new Greeting("Ada", 1));

		await().atMost(Duration.ofSeconds(20)).until(() -> fixture().state(id) == JobState.succeeded);
		assertThat(fixture().job(id).finishedAt()).isAfterOrEqualTo(began.get().plus(SLEEP));
	}

	@Test
	void aRetryAndAFailureInsideALongerTransactionAreStampedByTheirOwnStatement() {
		fixture().queue().enqueue("greet", new Greeting("Ada", 1));
		fixture().queue().enqueue("greet", new Greeting("Bob", 2));
		ClaimedJob retried = fixture().store().claims().claim("default", Map.of("greet", 1), 1, "w", Duration.ofMinutes(1),
				false).get(0);
		ClaimedJob failed = fixture().store().claims().claim("default", Map.of("greet", 1), 1, "w", Duration.ofMinutes(1),
				false).get(0);
		Duration delay = Duration.ofSeconds(10);

		Instant began = fixture().transactions().execute(status -> {
			Instant start = databaseTimeThenSleep();
			assertThat(fixture().store().outcomes().retryLater(retried.lease(), delay, "later")).isTrue();
			assertThat(fixture().store().outcomes().fail(failed.lease(), "broken")).isTrue();
			return start;
		});

		assertThat(fixture().job(retried.id()).runAt()).isAfterOrEqualTo(began.plus(SLEEP).plus(delay));
		Job dead = fixture().job(failed.id());
		assertThat(dead.finishedAt()).isAfterOrEqualTo(began.plus(SLEEP));
	}

	/** The first statement begins the transaction: its time is what {@code now()} says until the end. */
	private Instant databaseTimeThenSleep() {
		Instant start = fixture().jdbc().sql("SELECT statement_timestamp()").query(OffsetDateTime.class).single()
			.toInstant();
		fixture().jdbc().sql("SELECT pg_sleep(:seconds)").param("seconds", SLEEP.toMillis() / 1000.0).query().listOfRows();
		return start;
	}
}
