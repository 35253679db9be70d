package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.PauseScope;
import dev.jobqueue.support.PostgresTestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * On PostgreSQL, a REPEATABLE READ transaction that took its snapshot and stays open holds back the xmin horizon:
 * no row that dies after it can be vacuumed. The xmin gauges show it from the next sample on, the health indicator
 * turns OUT_OF_SERVICE past {@code jobqueue.health.xmin-held-out-of-service}, and both come back once it ends. The
 * oldest-ready-age gauge of a paused queue grows as on SQLite.
 */
class PostgresQueueHealthTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final PostgresTestDatabase database = new PostgresTestDatabase();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final QueueHealthSampler sampler = new QueueHealthSampler(database.store(), List.of("default"),
			Duration.ofSeconds(10));

	private JobQueueHealthIndicator health;

	@BeforeEach
	void setUp() {
		database.reset();
		JobQueueHealthProperties properties = new JobQueueHealthProperties();
		properties.setXminHeldOutOfService(Duration.ofMillis(500));
		properties.setXminHeldDown(Duration.ofHours(1));
		health = new JobQueueHealthIndicator(database.dataSource(), "postgresql",
				new StaticListableBeanFactory().getBeanProvider(JobRuntime.class),
				new QueueHealthThresholds(sampler, properties));
		new QueueHealthGauges(sampler, true).bindTo(registry);
	}

	/** The pause must not outlive the test: the next module's tests share the database. */
	@AfterEach
	void close() {
		database.reset();
		database.close();
	}

	@Test
	void aRepeatableReadTransactionHeldOpenShowsInTheXminGaugesAndTakesHealthOutOfServiceUntilItEnds()
			throws SQLException {
		sampler.runOnce();
		assertThat(health().getStatus()).isEqualTo(Status.UP);
		assertThat(gauge("jobqueue.postgres.xmin.held")).isLessThan(0.5);

		try (Connection reader = database.dataSource().getConnection()) {
			reader.setAutoCommit(false);
			reader.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
			try (Statement statement = reader.createStatement()) {
				// The first read takes the snapshot; the transaction holds the horizon from then on.
				statement.execute("SELECT count(*) FROM jobqueue_job");
			}
			// A transaction after it, which the snapshot's xmin is then older than.
			database.store().enqueues().enqueue(new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, null, null));

			await().atMost(WAIT).until(() -> {
				sampler.runOnce();
				return health().getStatus().equals(Status.OUT_OF_SERVICE);
			});
			assertThat(gauge("jobqueue.postgres.xmin.held")).isGreaterThan(0.5);
			assertThat(gauge("jobqueue.postgres.xmin.age")).isPositive();
			assertThat(health().getDetails().get("thresholds").toString()).contains(
					"a transaction has held back the xmin horizon for",
					"over jobqueue.health.xmin-held-out-of-service (PT0.5S)");
			reader.commit();
		}
		sampler.runOnce();

		assertThat(gauge("jobqueue.postgres.xmin.held")).isZero();
		assertThat(health().getStatus()).isEqualTo(Status.UP);
		assertThat(gauge("jobqueue.postgres.dead.rows")).isNotNegative();
	}

	@Test
	void theOldestReadyAgeOfAPausedQueueGrowsWhileItWaits() {
		database.store().pauses().pause(PauseScope.queue, "default");
		database.store().enqueues().enqueue(new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, null, null));
		sampler.runOnce();
		double first = oldestReadyAge("default");

		await().atMost(WAIT).until(() -> {
			sampler.runOnce();
			return oldestReadyAge("default") > first;
		});
		database.testHooks().bringReadyForward(Duration.ofMinutes(5));
		sampler.runOnce();
		assertThat(oldestReadyAge("default")).isGreaterThanOrEqualTo(300.0);
	}

	private Health health() {
		return health.health(true);
	}

	private double gauge(String name) {
		return registry.get(name).gauge().value();
	}

	private double oldestReadyAge(String queue) {
		return registry.get("jobqueue.queue.oldest.ready.age").tags("queue", queue).gauge().value();
	}
}
