package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobCursor;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.store.Lease;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/** Resumable jobs: steps recorded once per job, skipped by later attempts, fenced, and deleted with their job. */
public abstract class StepsContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	final List<String> ran = new CopyOnWriteArrayList<>();

	QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.jdbc().sql("CREATE TABLE IF NOT EXISTS test_step_writes (job_id bigint, attempt int)").update();
		fixture.jdbc().sql("DELETE FROM test_step_writes").update();
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@Test
	void aRetrySkipsTheStepsAnEarlierAttemptFinishedAndGetsTheirRecordedResults() {
		fixture.handle("order", Greeting.class, (greeting, context) -> {
			String charge = context.step("charge", String.class, () -> {
				ran.add("charge");
				return "ch_" + context.attempt();
			});
			Greeting receipt = context.step("receipt", Greeting.class, () -> {
				ran.add("receipt");
				return new Greeting(greeting.name() + " paid", 2);
			});
			context.step("notify", () -> ran.add("notify"));
			ran.add("ship");
			if (context.attempt() < 3) {
				throw new IllegalStateException("the carrier is down");
			}
			return charge + " " + receipt.name() + " " + receipt.count();
		});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("order", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(3));

		awaitState(id, JobState.succeeded);
		assertThat(ran).containsExactly("charge", "receipt", "notify", "ship", "ship", "ship");
		assertThat(fixture.job(id).result()).isEqualTo("\"ch_1 Ada paid 2\"");
		assertThat(fixture.store().steps().steps(id)).containsOnlyKeys("charge", "receipt", "notify")
			.containsEntry("charge", "\"ch_1\"")
			.containsEntry("notify", null);
	}

	@Test
	void aStepThatThrowsIsNotRecordedAndRunsAgainInTheNextAttempt() {
		AtomicInteger tries = new AtomicInteger();
		fixture.handle("flaky", Greeting.class, (greeting, context) -> context.step("call", Integer.class, () -> {
			if (tries.incrementAndGet() == 1) {
				throw new IllegalStateException("timed out");
			}
			return tries.get();
		}));
		fixture.startRuntime();

		long id = fixture.queue().enqueue("flaky", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(3));

		awaitState(id, JobState.succeeded);
		assertThat(tries).hasValue(2);
		assertThat(fixture.job(id).result()).isEqualTo("2");
		assertThat(fixture.store().steps().steps(id)).containsExactlyEntriesOf(java.util.Map.of("call", "2"));
	}

	@Test
	void aTransactionalHandlersStepRollsBackWithItsWritesAndRunsAgain() {
		fixture.handle("book", Greeting.class, null, true, (greeting, context) -> {
			context.step("book", () -> fixture.jdbc()
				.sql("INSERT INTO test_step_writes (job_id, attempt) VALUES (:id, :attempt)")
				.param("id", context.jobId())
				.param("attempt", context.attempt())
				.update());
			if (context.attempt() == 1) {
				throw new IllegalStateException("rolled back with the step");
			}
			return null;
		});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("book", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(2));

		awaitState(id, JobState.succeeded);
		assertThat(fixture.jdbc().sql("SELECT attempt FROM test_step_writes").query(Integer.class).list())
			.containsExactly(2);
		assertThat(fixture.store().steps().steps(id)).containsOnlyKeys("book");
	}

	@Test
	void aStepIsRecordedOnlyUnderTheJobsCurrentLeaseAndOnlyOnce() {
		long id = fixture.queue().enqueue("order", new Greeting("Ada", 1));
		Lease lease = fixture.store().claims().claim("default", java.util.Map.of("order", 1), 1,
				"worker", Duration.ofMinutes(1), true).get(0).lease();

		assertThat(fixture.store().steps().record(new Lease(id, lease.token() + 1), 1, "charge", "1")).isFalse();
		assertThat(fixture.store().steps().record(lease, 1, "charge", "\"first\"")).isTrue();
		assertThat(fixture.store().steps().record(lease, 1, "charge", "\"second\"")).isFalse();
		assertThat(fixture.store().steps().steps(id)).containsExactlyEntriesOf(java.util.Map.of("charge", "\"first\""));
	}

	@Test
	void thePrunerDeletesAJobsStepsWithIt() {
		fixture.handle("order", Greeting.class, (greeting, context) -> context.step("charge", String.class,
				() -> "ch_" + greeting.name()));
		fixture.startRuntime();
		long first = fixture.queue().enqueue("order", new Greeting("Ada", 1));
		long second = fixture.queue().enqueue("order", new Greeting("Grace", 1));
		awaitState(first, JobState.succeeded);
		awaitState(second, JobState.succeeded);
		assertThat(stepRows()).isEqualTo(2);

		assertThat(fixture.store().maintenance().prune(Duration.ZERO, Duration.ZERO, 100)).isEqualTo(2);

		assertThat(stepRows()).isZero();
	}

	@Test
	void aBulkDeleteOfFinishedJobsDeletesTheirSteps() {
		fixture.handle("order", Greeting.class, (greeting, context) -> context.step("charge", String.class,
				() -> "ch_" + greeting.name()));
		fixture.startRuntime();
		long id = fixture.queue().enqueue("order", new Greeting("Ada", 1));
		awaitState(id, JobState.succeeded);
		assertThat(stepRows()).isEqualTo(1);

		assertThat(fixture.queue().deleteFinished(JobQuery.all())).isEqualTo(1);

		assertThat(stepRows()).isZero();
	}

	@Test
	void aBlankStepNameIsRefusedAndFailsTheAttempt() {
		fixture.handle("unnamed", Greeting.class, (greeting, context) -> context.step(" ", String.class, () -> "x"));
		fixture.startRuntime();

		long id = fixture.queue().enqueue("unnamed", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(1));

		awaitState(id, JobState.dead);
		assertThat(fixture.job(id).lastError()).contains("IllegalArgumentException: a step's name must be 1 to 200 "
				+ "characters, not blank, was ' '");
		assertThat(stepRows()).isZero();
	}

	@Test
	void aRetryPicksUpALoopFromTheCursorsLastSavedPosition() {
		List<Integer> exported = new CopyOnWriteArrayList<>();
		fixture.handle("export", Greeting.class, (greeting, context) -> {
			JobCursor<Integer> after = context.cursor("rows", Integer.class, 0);
			for (int row = after.position() + 1; row <= 10; row++) {
				if (row == 4 && context.attempt() == 1 || row == 8 && context.attempt() == 2) {
					throw new IllegalStateException("the connection dropped at row " + row);
				}
				exported.add(row);
				after.save(row);
			}
			return after.position();
		});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("export", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(3));

		awaitState(id, JobState.succeeded);
		assertThat(exported).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
		assertThat(fixture.job(id).result()).isEqualTo("10");
		assertThat(fixture.store().steps().steps(id)).containsExactlyEntriesOf(java.util.Map.of("cursor:rows", "10"));
	}

	@Test
	void aCursorIsSavedOnlyUnderTheJobsCurrentLeaseAndOverwritten() {
		long id = fixture.queue().enqueue("order", new Greeting("Ada", 1));
		Lease lease = fixture.store().claims().claim("default", java.util.Map.of("order", 1), 1,
				"worker", Duration.ofMinutes(1), true).get(0).lease();

		assertThat(fixture.store().steps().save(new Lease(id, lease.token() + 1), 1, "cursor:rows", "1")).isFalse();
		assertThat(fixture.store().steps().save(lease, 1, "cursor:rows", "1")).isTrue();
		assertThat(fixture.store().steps().save(lease, 1, "cursor:rows", "2")).isTrue();
		assertThat(fixture.store().steps().save(lease, 1, "cursor:rows", "2")).isTrue();
		assertThat(fixture.store().steps().steps(id)).containsExactlyEntriesOf(java.util.Map.of("cursor:rows", "2"));
	}

	@Test
	void aTransactionalHandlersCursorRollsBackWithItsWrites() {
		fixture.handle("book", Greeting.class, null, true, (greeting, context) -> {
			JobCursor<Integer> done = context.cursor("done", Integer.class, 0);
			fixture.jdbc()
				.sql("INSERT INTO test_step_writes (job_id, attempt) VALUES (:id, :attempt)")
				.param("id", context.jobId())
				.param("attempt", done.position())
				.update();
			done.save(done.position() + 1);
			if (context.attempt() == 1) {
				throw new IllegalStateException("rolled back with the cursor");
			}
			return null;
		});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("book", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(2));

		awaitState(id, JobState.succeeded);
		assertThat(fixture.jdbc().sql("SELECT attempt FROM test_step_writes").query(Integer.class).list())
			.containsExactly(0);
		assertThat(fixture.store().steps().steps(id)).containsExactlyEntriesOf(java.util.Map.of("cursor:done", "1"));
	}

	@Test
	void aStepNamedAsACursorOrALogNoteIsRefused() {
		fixture.handle("clash", Greeting.class, (greeting, context) -> context.step("note:x", String.class, () -> "x"));
		fixture.startRuntime();

		long id = fixture.queue().enqueue("clash", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(1));

		awaitState(id, JobState.dead);
		assertThat(fixture.job(id).lastError()).contains("step 'note:x' starts with 'cursor:' or 'note:'");
		assertThat(stepRows()).isZero();
	}

	private long stepRows() {
		return fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job_step").query(Long.class).single();
	}

	void awaitState(long id, JobState state) {
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(state));
	}
}
