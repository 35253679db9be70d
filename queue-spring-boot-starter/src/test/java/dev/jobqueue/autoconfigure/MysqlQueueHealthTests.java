package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.health.contributor.Status;

import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.PauseScope;
import dev.jobqueue.support.MysqlTestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * On MySQL/MariaDB the oldest-ready-age gauge of a paused queue grows as on the other databases, and health turns
 * OUT_OF_SERVICE past its threshold; there is no table health to show (no PostgreSQL gauges).
 */
class MysqlQueueHealthTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final MysqlTestDatabase database = new MysqlTestDatabase(4);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final QueueHealthSampler sampler = new QueueHealthSampler(database.store(), List.of("default"),
			Duration.ofSeconds(10));

	private JobQueueHealthIndicator health;

	@BeforeEach
	void setUp() {
		database.reset();
		JobQueueHealthProperties properties = new JobQueueHealthProperties();
		properties.setOldestReadyAgeOutOfService(Duration.ofMinutes(1));
		health = new JobQueueHealthIndicator(database.dataSource(), "mysql",
				new StaticListableBeanFactory().getBeanProvider(JobRuntime.class),
				new QueueHealthThresholds(sampler, properties));
		new QueueHealthGauges(sampler, false).bindTo(registry);
	}

	/** The pause must not outlive the test: the other tests share the database. */
	@AfterEach
	void close() {
		database.reset();
		database.close();
	}

	@Test
	void theOldestReadyAgeOfAPausedQueueGrowsWhileItWaitsAndTakesHealthOutOfServicePastItsThreshold() {
		database.store().pauses().pause(PauseScope.queue, "default");
		database.store().enqueues().enqueue(new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, null, null));
		sampler.runOnce();
		double first = oldestReadyAge();
		assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);

		await().atMost(WAIT).until(() -> {
			sampler.runOnce();
			return oldestReadyAge() > first;
		});
		database.testHooks().bringReadyForward(Duration.ofMinutes(5));
		sampler.runOnce();

		assertThat(oldestReadyAge()).isGreaterThanOrEqualTo(300.0);
		assertThat(health.health(true).getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
		assertThat(health.health(true).getDetails()).containsEntry("database", "mysql");
		assertThat(registry.find("jobqueue.postgres.dead.rows").gauge()).isNull();
	}

	private double oldestReadyAge() {
		return registry.get("jobqueue.queue.oldest.ready.age").tags("queue", "default").gauge().value();
	}
}
