package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.AwaitTimeoutException;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.NonRetryableException;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobAwaiter;
import dev.jobqueue.store.WakeupSource;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * {@code JobQueue.await} from a node that runs no workers (an enqueue-only node): the jobs run on the
 * fixture's runtime, a node of their own. Its poll interval is a minute, so an await that returns within
 * seconds was woken by the database's notification (PostgreSQL) or the file's change (SQLite).
 */
public abstract class AwaitContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final RuntimeSettings ENQUEUE_ONLY = QueueFixture.SETTINGS.toBuilder()
		.pollInterval(Duration.ofMinutes(1))
		.build();

	private final CountDownLatch letGo = new CountDownLatch(1);

	private QueueFixture fixture;

	private JdbcJobQueue enqueueOnly;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.handle("report", Greeting.class, (greeting, context) -> {
			letGo.await();
			if (greeting.count() < 0) {
				throw new NonRetryableException("no report for a negative count");
			}
			return "report for " + greeting.name();
		});
		enqueueOnly = node(JobStores.dialect(database().store().vendor()).finishes(database().dataSource(), true),
				ENQUEUE_ONLY);
	}

	@AfterEach
	void tearDown() {
		letGo.countDown();
		enqueueOnly.close();
		fixture.close();
	}

	@Test
	void awaitReturnsTheSucceededJobOnceItFinishesOnAnotherNode() {
		fixture.startRuntime();
		long id = enqueueOnly.enqueue("report", new Greeting("Ada", 1));
		letGoSoon();

		Job job = enqueueOnly.await(id, WAIT);

		assertThat(job.state()).isEqualTo(JobState.succeeded);
		assertThat(job.result()).isEqualTo("\"report for Ada\"");
	}

	@Test
	void awaitReturnsADeadJobAndACancelledOneToo() {
		fixture.startRuntime();
		long dead = enqueueOnly.enqueue("report", new Greeting("Ada", -1));
		long cancelled = enqueueOnly.enqueue("report", new Greeting("Grace", 1),
				EnqueueOptions.defaults().delay(Duration.ofMinutes(5)));
		letGoSoon();

		assertThat(enqueueOnly.await(dead, WAIT).state()).isEqualTo(JobState.dead);
		runSoon(() -> fixture.queue().cancel(cancelled));
		assertThat(enqueueOnly.await(cancelled, WAIT).state()).isEqualTo(JobState.cancelled);
	}

	@Test
	void awaitTimesOutLeavingTheJobToGoOnAndItCanBeAwaitedAgain() {
		fixture.startRuntime();
		long id = enqueueOnly.enqueue("report", new Greeting("Ada", 1));

		assertThatThrownBy(() -> enqueueOnly.await(id, Duration.ofMillis(300)))
			.isInstanceOfSatisfying(AwaitTimeoutException.class, ex -> assertThat(ex.jobId()).isEqualTo(id))
			.hasMessage("job " + id + " did not finish within PT0.3S");
		assertThat(fixture.state(id)).isIn(JobState.ready, JobState.running);

		letGoSoon();
		assertThat(enqueueOnly.await(id, WAIT).state()).isEqualTo(JobState.succeeded);
	}

	@Test
	void withoutNotificationsAwaitLooksEveryPollInterval() {
		JdbcJobQueue polling = node(null, QueueFixture.SETTINGS);
		try {
			fixture.startRuntime();
			long id = polling.enqueue("report", new Greeting("Ada", 1));
			letGoSoon();

			assertThat(polling.await(id, WAIT).state()).isEqualTo(JobState.succeeded);
		}
		finally {
			polling.close();
		}
	}

	@Test
	void awaitOfAFinishedJobReturnsAtOnceAndOfAnUnknownOneIsRefused() {
		letGo.countDown();
		fixture.startRuntime();
		long id = enqueueOnly.enqueue("report", new Greeting("Ada", 1));
		enqueueOnly.await(id, WAIT);

		assertThat(enqueueOnly.await(id, Duration.ofMillis(1)).state()).isEqualTo(JobState.succeeded);
		assertThatIllegalArgumentException().isThrownBy(() -> enqueueOnly.await(id + 1000, WAIT))
			.withMessage("there is no job " + (id + 1000));
		assertThatIllegalArgumentException().isThrownBy(() -> enqueueOnly.await(id, Duration.ZERO))
			.withMessage("timeout must be a positive duration, was PT0S");
	}

	private JdbcJobQueue node(WakeupSource finishes, RuntimeSettings settings) {
		return new JdbcJobQueue(database().store(), QueueFixture.JSON, fixture.handlers(), settings,
				CountingListener.NONE, queue -> {
				}, new JobAwaiter(database().store().reads(), finishes, settings.pollInterval()));
	}

	/** Lets the handlers finish a little after the await began, so that it has to be woken. */
	private void letGoSoon() {
		runSoon(letGo::countDown);
	}

	private static void runSoon(Runnable action) {
		Thread thread = new Thread(() -> {
			try {
				Thread.sleep(300);
				action.run();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		thread.setDaemon(true);
		thread.start();
	}
}
