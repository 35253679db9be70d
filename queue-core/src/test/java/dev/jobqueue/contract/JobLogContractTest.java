package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobLog;
import dev.jobqueue.JobLogLimits;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * A handler's log lines and progress: kept with the job for every attempt, a failed or rolled-back one's too,
 * written while it runs at most once per heartbeat interval, bounded, and deleted with the job.
 */
public abstract class JobLogContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final CountDownLatch release = new CountDownLatch(1);

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.jdbc().sql("CREATE TABLE IF NOT EXISTS test_log_writes (job_id bigint)").update();
		fixture.jdbc().sql("DELETE FROM test_log_writes").update();
	}

	@AfterEach
	void tearDown() {
		release.countDown();
		fixture.close();
	}

	@Test
	void everyAttemptsLinesAreKeptInOrderAFailedOnesTooWithTheLatestProgress() {
		fixture.handle("import", Greeting.class, (greeting, context) -> {
			context.log("attempt " + context.attempt() + " starts");
			context.progress(context.attempt() * 3, 10);
			if (context.attempt() == 1) {
				throw new IllegalStateException("the partner's server is down");
			}
			context.log("attempt " + context.attempt() + " done");
			return null;
		});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("import", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(2));

		awaitState(id, JobState.succeeded);
		JobLog log = fixture.queue().log(id);
		assertThat(log.lines()).extracting(JobLog.Line::attempt, JobLog.Line::text).containsExactly(
				tuple(1, "attempt 1 starts"),
				tuple(2, "attempt 2 starts"),
				tuple(2, "attempt 2 done"));
		assertThat(log.lines()).allSatisfy(line -> assertThat(line.at()).isNotNull());
		assertThat(log.progress()).satisfies(progress -> {
			assertThat(progress.attempt()).isEqualTo(2);
			assertThat(progress.done()).isEqualTo(6);
			assertThat(progress.total()).isEqualTo(10);
			assertThat(progress.fraction()).isEqualTo(0.6);
		});
	}

	@Test
	void aTransactionalHandlersLinesOutliveItsRollback() {
		fixture.handle("book", Greeting.class, null, true, (greeting, context) -> {
			fixture.jdbc().sql("INSERT INTO test_log_writes (job_id) VALUES (:id)").param("id", context.jobId()).update();
			context.log("booked, attempt " + context.attempt());
			if (context.attempt() == 1) {
				throw new IllegalStateException("rolled back");
			}
			return null;
		});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("book", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(2));

		awaitState(id, JobState.succeeded);
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM test_log_writes").query(Long.class).single()).isOne();
		assertThat(fixture.queue().log(id).lines()).extracting(JobLog.Line::text)
			.containsExactly("booked, attempt 1", "booked, attempt 2");
	}

	@Test
	void linesAndProgressAreWrittenWhileTheAttemptRunsOncePerHeartbeatInterval() {
		fixture.handle("long", Greeting.class, (greeting, context) -> {
			context.log("first");
			context.progress(1, 4);
			sleep(QueueFixture.SETTINGS.heartbeatInterval().plusMillis(200));
			context.progress(2, 4);
			context.log("second");
			awaitRelease();
			return null;
		});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("long", new Greeting("Ada", 1));

		// The call after an interval writes what came before it, and itself; the line after it waits for the next.
		await().atMost(WAIT).until(() -> fixture.queue().log(id).progress() != null);
		assertThat(fixture.state(id)).isEqualTo(JobState.running);
		assertThat(fixture.queue().log(id).progress().done()).isEqualTo(2);
		assertThat(fixture.queue().log(id).lines()).extracting(JobLog.Line::text).containsExactly("first");
		release.countDown();
		awaitState(id, JobState.succeeded);
		assertThat(fixture.queue().log(id).lines()).extracting(JobLog.Line::text).containsExactly("first", "second");
	}

	@Test
	void anAttemptKeepsItsFirstLinesCutToTheLimitAndCountsTheRest() {
		fixture.handle("chatty", Greeting.class, (greeting, context) -> {
			context.log("x".repeat(JobLogLimits.MAX_LINE_LENGTH + 10));
			for (int i = 1; i < JobLogLimits.MAX_LINES + 50; i++) {
				context.log("line " + i);
			}
			return null;
		});
		fixture.startRuntime();

		long id = fixture.queue().enqueue("chatty", new Greeting("Ada", 1));

		awaitState(id, JobState.succeeded);
		JobLog log = fixture.queue().log(id);
		assertThat(log.lines()).hasSize(JobLogLimits.MAX_LINES + 1);
		assertThat(log.lines().get(0).text()).hasSize(JobLogLimits.MAX_LINE_LENGTH);
		assertThat(log.lines().get(JobLogLimits.MAX_LINES - 1).text()).isEqualTo("line " + (JobLogLimits.MAX_LINES - 1));
		assertThat(log.lines().get(JobLogLimits.MAX_LINES).text()).startsWith("50 more line(s) not kept");
	}

	@Test
	void aProgressThatIsNoFigureFailsTheAttemptAndAJobThatLoggedNothingHasAnEmptyLog() {
		fixture.handle("wrong", Greeting.class, (greeting, context) -> {
			context.progress(5, 3);
			return null;
		});
		fixture.handle("quiet", Greeting.class, (greeting, context) -> null);
		fixture.startRuntime();

		long wrong = fixture.queue().enqueue("wrong", new Greeting("Ada", 1), EnqueueOptions.defaults().maxAttempts(1));
		long quiet = fixture.queue().enqueue("quiet", new Greeting("Ada", 1));

		awaitState(wrong, JobState.dead);
		awaitState(quiet, JobState.succeeded);
		assertThat(fixture.job(wrong).lastError()).contains("IllegalArgumentException: progress must be done of total");
		assertThat(fixture.queue().log(quiet)).isEqualTo(JobLog.EMPTY);
		assertThat(fixture.queue().log(Long.MAX_VALUE)).isEqualTo(JobLog.EMPTY);
	}

	@Test
	void aJobsLogIsDeletedWithItAndIsNoStepOfIt() {
		fixture.handle("logged", Greeting.class, (greeting, context) -> {
			context.log("hello");
			context.progress(1, 1);
			return context.step("step", String.class, () -> "done");
		});
		fixture.startRuntime();
		long id = fixture.queue().enqueue("logged", new Greeting("Ada", 1));
		awaitState(id, JobState.succeeded);
		assertThat(fixture.store().steps().steps(id)).containsOnlyKeys("step");
		assertThat(fixture.queue().log(id).lines()).hasSize(1);

		assertThat(fixture.queue().deleteFinished(JobQuery.all())).isEqualTo(1);

		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job_step").query(Long.class).single()).isZero();
	}

	private void awaitState(long id, JobState state) {
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(state));
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void awaitRelease() {
		try {
			release.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}
}
