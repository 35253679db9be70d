package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.support.FaultInjectingStore;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.SqliteTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Health follows the runtime's roles: a heartbeat or a claim that keeps failing turns it DOWN, naming the
 * role and since when, while the threads live on; an error that left the JVM unusable keeps it DOWN.
 */
class JobQueueHealthIndicatorTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final RuntimeSettings FAST = QueueFixture.SETTINGS.toBuilder()
			.lease(Duration.ofSeconds(2))
			.heartbeatInterval(Duration.ofMillis(100))
			.build();

	private final SqliteTestDatabase database = new SqliteTestDatabase();

	private final FaultInjectingStore faults = new FaultInjectingStore(database.store());

	private final HandlerRegistry handlers = new HandlerRegistry();

	private final CountDownLatch release = new CountDownLatch(1);

	private JobRuntime runtime;

	private JobQueueHealthIndicator health;

	@AfterEach
	void stop() {
		release.countDown();
		if (runtime != null) {
			runtime.stop();
		}
		database.close();
	}

	@Test
	void aHeartbeatThatKeepsFailingTurnsHealthDownNamingItUntilItSucceedsAgain() {
		start();
		JobQueue queue = new JdbcJobQueue(database.store(), QueueFixture.JSON, handlers, FAST, JobListener.NONE,
				name -> runtime.wake(name));
		queue.enqueue("held", "x");
		await().atMost(WAIT).until(() -> faults.calls("heartbeat") > 0);
		assertThat(health().getStatus()).isEqualTo(Status.UP);

		faults.failNext("heartbeat", Integer.MAX_VALUE);

		await().atMost(WAIT).until(() -> health().getStatus().equals(Status.DOWN));
		assertThat(health().getDetails()).containsKey("overdue");
		assertThat(health().getDetails().get("overdue").toString()).contains("heartbeat")
			.contains("no successful pass since");
		faults.heal("heartbeat");
		await().atMost(WAIT).until(() -> health().getStatus().equals(Status.UP));
	}

	@Test
	void theNodeThatMaintainsSaysSo() {
		start();

		assertThat(health().getStatus()).isEqualTo(Status.UP);
		assertThat(health().getDetails()).containsEntry("maintainer", true);
	}

	@Test
	void aNodeThatDoesNotHoldTheMaintenanceLeaseStaysUpAndSaysItDoesNotMaintain() {
		database.store().maintenance().holdMaintenance("another node", Duration.ofMinutes(1));
		start();

		// Longer than half the lease, after which a watched role that did not pass would be overdue.
		await().during(Duration.ofSeconds(2)).atMost(WAIT).until(() -> health().getStatus().equals(Status.UP));
		assertThat(health().getDetails()).containsEntry("maintainer", false);
	}

	@Test
	void claimsThatKeepFailingTurnHealthDownNamingTheQueue() {
		start();
		faults.failNext("claim", Integer.MAX_VALUE);

		await().atMost(WAIT).until(() -> health().getStatus().equals(Status.DOWN));
		assertThat(health().getDetails().get("overdue").toString()).contains("claim default");
	}

	@Test
	void anErrorThatLeftTheJvmUnusableKeepsHealthDownWithTheError() {
		faults.failNext("claim", 1, () -> new InternalError("injected: the JVM is broken"));
		start();

		await().atMost(WAIT).until(() -> health().getStatus().equals(Status.DOWN));
		assertThat(health().getDetails().get("error").toString()).contains("injected: the JVM is broken");
	}

	private Health health() {
		return health.health(true);
	}

	private void start() {
		handlers.register(new JobHandlerDefinition("held", RuntimeSettings.DEFAULT_QUEUE, String.class, null, false,
				(payload, context) -> release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "held"));
		runtime = new JobRuntime(faults.store(), handlers, QueueFixture.JSON, FAST, JobListener.NONE,
				new TransactionTemplate(new JdbcTransactionManager(database.dataSource())));
		StaticListableBeanFactory beans = new StaticListableBeanFactory();
		beans.addBean("jobRuntime", runtime);
		QueueHealthSampler sampler = new QueueHealthSampler(database.store(), List.of(), Duration.ofSeconds(10));
		health = new JobQueueHealthIndicator(database.dataSource(), "sqlite", beans.getBeanProvider(JobRuntime.class),
				new QueueHealthThresholds(sampler, new JobQueueHealthProperties()));
		runtime.start();
	}
}
