package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import org.postgresql.PGConnection;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.jobqueue.JobContext;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.spring.JobHandler;

/**
 * The connection budget of README's "Connections": 64 handler threads on an application pool of 8. Handlers
 * that do not touch the database hold none of its connections while they run (the runtime's claims,
 * heartbeats and completions use its own pool); those that do, transactional or not, share the 8 and wait
 * their turn, without a deadlock and without a connection timeout (every job succeeds at its first attempt).
 */
class PostgresConnectionBudgetTests {

	private static final int THREADS = 64;

	private static final int POOL = 8;

	private static final String URL = PostgresSchemas.fresh("starter_budget_test");

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class))
		.withUserConfiguration(Handlers.class)
		.withPropertyValues("spring.datasource.url=" + URL,
				"spring.datasource.hikari.pool-name=app", "spring.datasource.hikari.maximum-pool-size=" + POOL,
				"jobqueue.queues.default.concurrency=" + THREADS, "jobqueue.poll-interval=100ms");

	@Test
	void handlersThatDoNotTouchTheDatabaseHoldNoConnectionAndThoseThatDoShareThePoolWithoutTimeouts() {
		runner.run(context -> {
			JobQueue jobs = context.getBean(JobQueue.class);
			HikariPoolMXBean pool = ((HikariDataSource) context.getBean(DataSource.class)).getHikariPoolMXBean();
			// The test's own reads go around the application's pool, whose use is what it measures.
			JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(URL));
			jdbc.sql("CREATE TABLE budget_effect (job_id bigint NOT NULL)").update();

			List<Long> sleeping = enqueueAndAwaitItsNotification(jobs, pool);
			try (ActiveConnections active = ActiveConnections.watch(pool)) {
				awaitSucceeded(jdbc, sleeping.size(), "budget-sleep");
				assertThat(active.max()).as("the application's connections in use while only sleeping handlers ran")
					.isZero();
			}

			List<Long> touching = jobs.enqueueAll(IntStream.range(0, 500)
				.mapToObj(i -> new NewJobRequest(i % 2 == 0 ? "budget-query" : "budget-tx", 5))
				.toList());
			try (ActiveConnections active = ActiveConnections.watch(pool)) {
				awaitSucceeded(jdbc, touching.size() / 2, "budget-query");
				awaitSucceeded(jdbc, touching.size() / 2, "budget-tx");
				assertThat(active.max()).as("the application's connections in use by handlers that use them")
					.isEqualTo(POOL);
				assertThat(active.maxWaiting()).as("handler threads waiting for one of them at once").isPositive();
			}
			assertThat(jdbc.sql("SELECT count(*) FROM jobqueue_job WHERE attempt <> 1").query(Long.class).single())
				.as("jobs that needed more than one attempt").isZero();
			assertThat(jdbc.sql("SELECT count(DISTINCT job_id) FROM budget_effect").query(Long.class).single())
				.isEqualTo(touching.size() / 2);
		});
	}

	/**
	 * Enqueues the sleeping jobs and waits for the notification of their queue, which the store sends after the
	 * commit on a thread of its own, through the application's pool: it belongs to the enqueue, and sampled
	 * with the handlers it was a connection in use while they ran.
	 */
	private static List<Long> enqueueAndAwaitItsNotification(JobQueue jobs, HikariPoolMXBean pool)
			throws SQLException {
		try (Connection listening = DriverManager.getConnection(URL); Statement listen = listening.createStatement()) {
			listen.execute("LISTEN jobqueue_ready");
			List<Long> sleeping = jobs.enqueueAll(IntStream.range(0, 1_500)
				.mapToObj(i -> new NewJobRequest("budget-sleep", 10 + i % 30))
				.toList());
			assertThat(listening.unwrap(PGConnection.class).getNotifications(10_000)).as("the enqueue's notification")
				.isNotEmpty();
			await("the notifier's connection back in the pool").atMost(Duration.ofSeconds(5))
				.until(() -> pool.getActiveConnections() == 0);
			return sleeping;
		}
	}

	private static void awaitSucceeded(JdbcClient jdbc, long count, String kind) {
		await(count + " jobs of " + kind).atMost(Duration.ofMinutes(2))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> jdbc.sql("SELECT count(*) FROM jobqueue_job WHERE kind = :kind AND state = 'succeeded'")
				.param("kind", kind)
				.query(Long.class)
				.single() == count);
	}

	/** Samples a Hikari pool's connections in use, and its threads waiting for one, every millisecond. */
	private static final class ActiveConnections implements AutoCloseable {

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final AtomicInteger max = new AtomicInteger();

		private final AtomicInteger maxWaiting = new AtomicInteger();

		private final Thread sampler;

		private ActiveConnections(HikariPoolMXBean pool) {
			sampler = new Thread(() -> {
				while (running.get()) {
					max.accumulateAndGet(pool.getActiveConnections(), Math::max);
					maxWaiting.accumulateAndGet(pool.getThreadsAwaitingConnection(), Math::max);
					try {
						Thread.sleep(1);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			});
			sampler.start();
		}

		static ActiveConnections watch(HikariPoolMXBean pool) {
			return new ActiveConnections(pool);
		}

		int max() {
			return max.get();
		}

		int maxWaiting() {
			return maxWaiting.get();
		}

		@Override
		public void close() throws InterruptedException {
			running.set(false);
			sampler.join();
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class Handlers {

		private final JdbcClient jdbc;

		Handlers(DataSource dataSource) {
			this.jdbc = JdbcClient.create(dataSource);
		}

		@JobHandler("budget-sleep")
		void sleep(int millis) throws InterruptedException {
			Thread.sleep(millis);
		}

		@JobHandler("budget-query")
		void query(int millis) {
			jdbc.sql("SELECT pg_sleep(:seconds)").param("seconds", millis / 1000.0).query().listOfRows();
		}

		@JobHandler(value = "budget-tx", transactional = true)
		void write(int millis, JobContext context) throws InterruptedException {
			jdbc.sql("INSERT INTO budget_effect (job_id) VALUES (:id)").param("id", context.jobId()).update();
			Thread.sleep(millis);
		}
	}
}
