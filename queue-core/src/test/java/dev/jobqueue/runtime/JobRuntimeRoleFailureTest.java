package dev.jobqueue.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.FaultInjectingStore;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.SqliteTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every role of the runtime meets an {@code Error} from a real store and runs again afterwards; an error
 * that says the JVM is unusable stops the runtime. The roles do not depend on the database, so one
 * database (SQLite) serves.
 */
class JobRuntimeRoleFailureTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final RuntimeSettings FAST = QueueFixture.SETTINGS.toBuilder()
		.lease(Duration.ofSeconds(2))
		.heartbeatInterval(Duration.ofMillis(100))
		.pruneInterval(Duration.ofMillis(50))
		.vacuumInterval(Duration.ofMillis(50))
		.reaperInterval(Duration.ofMillis(50)).build();

	private final SqliteTestDatabase database = new SqliteTestDatabase();

	private final FaultInjectingStore faults = new FaultInjectingStore(database.store());

	private final HandlerRegistry handlers = new HandlerRegistry();

	private final JobQueue queue = new JdbcJobQueue(database.store(), QueueFixture.JSON, handlers,
			FAST, CountingListener.NONE, name -> {
			});

	private final CountDownLatch release = new CountDownLatch(1);

	private JobRuntime runtime;

	JobRuntimeRoleFailureTest() {
		handlers.register(new JobHandlerDefinition("quick", RuntimeSettings.DEFAULT_QUEUE, String.class, null, false,
				(payload, context) -> payload, "quick"));
		handlers.register(new JobHandlerDefinition("held", RuntimeSettings.DEFAULT_QUEUE, String.class, null, false,
				(payload, context) -> release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "held"));
		handlers.register(new JobHandlerDefinition("stubborn", RuntimeSettings.DEFAULT_QUEUE, String.class, null,
				false, (payload, context) -> awaitReleaseIgnoringInterrupts(), "stubborn"));
	}

	/**
	 * Holds its job in flight even after the watchdog's fence interrupts it, so that the heartbeat keeps
	 * having a lease to extend, and keeps failing, until the test heals it.
	 */
	private boolean awaitReleaseIgnoringInterrupts() {
		long deadline = System.nanoTime() + WAIT.toNanos();
		boolean interrupted = false;
		while (System.nanoTime() < deadline) {
			try {
				if (release.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
					break;
				}
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
		return true;
	}

	@AfterEach
	void stop() {
		release.countDown();
		if (runtime != null) {
			runtime.stop();
		}
		database.close();
	}

	@Test
	void anErrorInTheHeartbeatIsLoggedAndTheNextHeartbeatsStillExtendTheLease() {
		start();
		long id = queue.enqueue("held", "x");
		await().atMost(WAIT).until(() -> state(id) == JobState.running);
		faults.failNext("heartbeat", 1);

		int failedAt = awaitFailureInjected("heartbeat");

		await().atMost(WAIT).until(() -> faults.calls("heartbeat") >= failedAt + 3);
		release.countDown();
		await().atMost(WAIT).until(() -> state(id) == JobState.succeeded);
	}

	@Test
	void anErrorInAClaimLeavesThePollerClaiming() {
		faults.failNext("claim", 1);
		start();
		awaitFailureInjected("claim");

		long id = queue.enqueue("quick", "x");

		await().atMost(WAIT).until(() -> state(id) == JobState.succeeded);
	}

	@Test
	void anErrorInABatchedCompletionLeavesTheBatcherWritingTheNextOnes() {
		faults.failNext("completeAll", 1);
		start();
		queue.enqueue("quick", "first");
		awaitFailureInjected("completeAll");

		long id = queue.enqueue("quick", "second");

		await().atMost(WAIT).until(() -> state(id) == JobState.succeeded);
	}

	@Test
	void anErrorInTheReaperIsLoggedAndTheReaperRunsAgain() {
		assertRunsAgainAfterAnError("reapExpired");
	}

	@Test
	void anErrorInThePrunerIsLoggedAndThePrunerRunsAgain() {
		assertRunsAgainAfterAnError("prune");
	}

	@Test
	void anErrorInTheVacuumerIsLoggedAndTheVacuumerRunsAgain() {
		assertRunsAgainAfterAnError("vacuumIfBloated");
	}

	@Test
	void anErrorThatLeavesTheJvmUnusableStopsTheRuntime() {
		faults.failNext("reapExpired", 1, () -> new InternalError("injected: the JVM is broken"));
		start();

		await().atMost(WAIT).until(() -> !runtime.isRunning());
	}

	@Test
	void aHeartbeatThatKeepsFailingIsOverdueUntilAPassSucceedsAgain() {
		start();
		// A handler that outlives the fence: with one that exits when fenced, the heartbeat has nothing left to
		// extend and succeeds again within a second of turning overdue, which a loaded machine can miss.
		long id = queue.enqueue("stubborn", "x");
		await().atMost(WAIT).until(() -> state(id) == JobState.running);
		faults.failNext("heartbeat", Integer.MAX_VALUE);

		await().atMost(WAIT).until(() -> overdueRoles().contains(JobRuntime.HEARTBEAT));
		assertThat(runtime.isRunning()).isTrue();
		faults.heal("heartbeat");

		await().atMost(WAIT).until(() -> overdueRoles().isEmpty());
	}

	@Test
	void aClaimThatKeepsFailingIsOverdueUntilAPassSucceedsAgain() {
		start();
		assertThat(overdueRoles()).isEmpty();
		faults.failNext("claim", Integer.MAX_VALUE);

		await().atMost(WAIT).until(() -> overdueRoles().contains("claim default"));
		faults.heal("claim");

		await().atMost(WAIT).until(() -> overdueRoles().isEmpty());
	}

	@Test
	void aHeartbeatWithNothingToExtendCountsAsASuccess() {
		start();
		Instant started = runtime.liveness().lastSuccesses().get(JobRuntime.HEARTBEAT);

		await().atMost(WAIT).until(() -> runtime.liveness().lastSuccesses().get(JobRuntime.HEARTBEAT).isAfter(started));
		assertThat(faults.calls("heartbeat")).isZero();
	}

	@Test
	void aNodeRegistryWriteThatKeepsFailingLeavesTheHeartbeatHealthy() {
		start();
		faults.failNext("touchNode", Integer.MAX_VALUE, () -> new DataAccessResourceFailureException("injected"));
		int failedAt = faults.calls("touchNode");
		Instant before = runtime.liveness().lastSuccesses().get(JobRuntime.HEARTBEAT);

		await().atMost(WAIT).until(() -> faults.calls("touchNode") >= failedAt + 3);
		assertThat(runtime.liveness().lastSuccesses().get(JobRuntime.HEARTBEAT)).isAfter(before);
		assertThat(overdueRoles()).doesNotContain(JobRuntime.HEARTBEAT);
	}

	@Test
	void theErrorThatStoppedTheRuntimeIsKeptForHealth() {
		faults.failNext("claim", 1, () -> new StackOverflowError("injected: no stack left"));
		start();

		await().atMost(WAIT).until(() -> !runtime.isRunning());
		assertThat(runtime.liveness().fatal()).get().isInstanceOf(StackOverflowError.class);
	}

	private List<String> overdueRoles() {
		return runtime.liveness().overdue().stream().map(RoleLiveness.Overdue::role).toList();
	}

	private void assertRunsAgainAfterAnError(String method) {
		faults.failNext(method, 1);
		start();

		int failedAt = awaitFailureInjected(method);

		await().atMost(WAIT).until(() -> faults.calls(method) >= failedAt + 3);
		assertThat(runtime.isRunning()).isTrue();
	}

	/** Waits until the injected failure was thrown; returns how many calls had been made by then. */
	private int awaitFailureInjected(String method) {
		await().atMost(WAIT).until(() -> faults.failuresLeft(method) == 0 && faults.calls(method) > 0);
		return faults.calls(method);
	}

	private JobState state(long id) {
		return queue.find(id).orElseThrow().state();
	}

	private void start() {
		runtime = new JobRuntime(faults.store(), handlers, QueueFixture.JSON, FAST, JobListener.NONE,
				new TransactionTemplate(new JdbcTransactionManager(database.dataSource())));
		runtime.start();
	}
}
