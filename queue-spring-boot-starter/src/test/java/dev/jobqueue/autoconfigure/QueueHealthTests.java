package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.PauseScope;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.SqliteTestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The oldest-ready-age gauge and the health thresholds read the sampler's last sample: the gauge of a paused queue,
 * and of a queue whose one worker is busy, grows while its job waits; past the thresholds the health indicator
 * goes OUT_OF_SERVICE, then DOWN, saying which queue and which property. {@link dev.jobqueue.store.TestHooks#bringReadyForward} stands
 * in for minutes of waiting.
 */
class QueueHealthTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final SqliteTestDatabase database = new SqliteTestDatabase();

	private final JobStore store = database.store();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final QueueHealthSampler sampler = new QueueHealthSampler(store, List.of("default"),
			Duration.ofSeconds(10));

	private final CountDownLatch release = new CountDownLatch(1);

	private JobRuntime runtime;

	@AfterEach
	void stop() {
		release.countDown();
		if (runtime != null) {
			runtime.stop();
		}
		database.close();
	}

	@Test
	void theOldestReadyAgeOfAPausedQueueGrowsWhileItWaitsAndAScrapeReadsTheLastSample() {
		new QueueHealthGauges(sampler, false).bindTo(registry);
		store.pauses().pause(PauseScope.queue, "mail");
		enqueue("mail");
		double first = sampler.runOnce().oldestReady("mail").toNanos() / 1e9;

		await().atMost(WAIT).until(() -> sampledOldestReadyAge("mail") > first);
		database.testHooks().bringReadyForward(Duration.ofMinutes(5));
		assertThat(oldestReadyAge("mail")).as("until the next sample").isLessThan(300.0);
		sampler.runOnce();

		assertThat(oldestReadyAge("mail")).isGreaterThanOrEqualTo(300.0);
		assertThat(oldestReadyAge("default")).isZero();
		assertThat(registry.get("jobqueue.queue.oldest.ready.age").gauges()).hasSize(2);
		assertThat(registry.find("jobqueue.postgres.xmin.held").gauges()).as("SQLite has no table health").isEmpty();
	}

	@Test
	void theOldestReadyAgeOfAQueueWhoseOnlyWorkerIsBusyGrowsUntilItsJobStarts() {
		new QueueHealthGauges(sampler, false).bindTo(registry);
		JobQueue queue = startOneWorker();
		queue.enqueue("held", "first");
		await().atMost(WAIT).until(() -> store.telemetry().countUnfinishedByQueue().getOrDefault("default", Map.of())
			.getOrDefault(JobState.running, 0L) == 1);
		queue.enqueue("held", "second");

		await().atMost(WAIT).until(() -> sampledOldestReadyAge("default") > 0.2);
		release.countDown();

		await().atMost(WAIT).until(() -> sampledOldestReadyAge("default") == 0);
	}

	@Test
	void aQueueWaitingPastItsThresholdsTakesHealthOutOfServiceThenDown() {
		JobQueueHealthProperties properties = new JobQueueHealthProperties();
		properties.setOldestReadyAgeOutOfService(Duration.ofMinutes(1));
		properties.setOldestReadyAgeDown(Duration.ofMinutes(10));
		JobQueueHealthIndicator health = new JobQueueHealthIndicator(database.dataSource(), "sqlite",
				new StaticListableBeanFactory().getBeanProvider(JobRuntime.class),
				new QueueHealthThresholds(sampler, properties));
		store.pauses().pause(PauseScope.queue, "mail");
		enqueue("mail");
		sampler.runOnce();
		assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);

		database.testHooks().bringReadyForward(Duration.ofMinutes(2));
		sampler.runOnce();
		Health late = health.health(true);
		assertThat(late.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
		assertThat(late.getDetails().get("thresholds").toString()).contains("queue mail",
				"over jobqueue.health.oldest-ready-age-out-of-service (PT1M)");

		database.testHooks().bringReadyForward(Duration.ofMinutes(10));
		sampler.runOnce();
		Health stuck = health.health(true);
		assertThat(stuck.getStatus()).isEqualTo(Status.DOWN);
		assertThat(stuck.getDetails().get("thresholds").toString())
			.contains("over jobqueue.health.oldest-ready-age-down (PT10M)");
		assertThat(stuck.getDetails()).containsKey("oldestReadyAge");
	}

	@Test
	void aStartedSamplerFindsTheQueuesHoldingJobsAndReadsThemOnItsOwnThreadUntilStopped() {
		store.enqueues().enqueue(new NewJob("reports", "render", "{}", 1, 5, null, Duration.ZERO, 3, null, null));
		database.testHooks().bringReadyForward(Duration.ofMinutes(3));
		QueueHealthSampler started = new QueueHealthSampler(store, List.of(), Duration.ofMillis(50));

		started.start();
		try {
			await().atMost(WAIT).until(() -> started.last().oldestReady("reports").toMinutes() >= 3);
			assertThat(started.isRunning()).isTrue();
		}
		finally {
			started.stop();
		}
		assertThat(started.isRunning()).isFalse();
	}

	private JobQueue startOneWorker() {
		HandlerRegistry handlers = new HandlerRegistry();
		handlers.register(new JobHandlerDefinition("held", RuntimeSettings.DEFAULT_QUEUE, String.class, null, false,
				(payload, context) -> release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "held"));
		RuntimeSettings settings = QueueFixture.SETTINGS.toBuilder().queues(Map.of("default", 1)).build();
		runtime = new JobRuntime(store, handlers, QueueFixture.JSON, settings, sampler,
				new TransactionTemplate(new JdbcTransactionManager(database.dataSource())));
		runtime.start();
		return new JdbcJobQueue(store, QueueFixture.JSON, handlers, settings, sampler, name -> runtime.wake(name));
	}

	/** As a JobQueue would: the job written, the listener told. */
	private void enqueue(String queue) {
		store.enqueues().enqueue(new NewJob(queue, "send-mail", "{}", 1, 5, null, Duration.ZERO, 3, null, null));
		sampler.onEnqueued(queue, "send-mail");
	}

	/** The gauge after a new sample, as the sampler's thread would take it. */
	private double sampledOldestReadyAge(String queue) {
		sampler.runOnce();
		return oldestReadyAge(queue);
	}

	private double oldestReadyAge(String queue) {
		return registry.get("jobqueue.queue.oldest.ready.age").tags("queue", queue).gauge().value();
	}
}
