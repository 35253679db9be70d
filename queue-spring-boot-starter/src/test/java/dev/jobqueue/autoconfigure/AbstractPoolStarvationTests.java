package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.spring.JobHandler;

/**
 * The reproduction of issue 13's item 5: a pool of 5 and 16 threads of 3-second transactional jobs. Each
 * handler holds a connection of the application's pool for its whole run; were the heartbeat, the claims
 * and the reaper to queue behind them for a connection, leases would run out under live handlers and jobs
 * be reaped and started twice. Every job must run once. One subclass per database server.
 */
abstract class AbstractPoolStarvationTests {

	private static final int JOBS = 20;

	/** The URL of an empty schema or database named {@code name} on the test server. */
	protected abstract String freshDatabaseUrl(String name);

	@Test
	void transactionalHandlersHoldingEveryConnectionOfTheApplicationsPoolDoNotStarveTheHeartbeat() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class))
			.withUserConfiguration(Handlers.class)
			.withPropertyValues("spring.datasource.url=" + freshDatabaseUrl("starter_starvation_test"),
					"spring.datasource.hikari.maximum-pool-size=5", "jobqueue.queues.default.concurrency=16",
					"jobqueue.lease-duration=3s", "jobqueue.heartbeat-interval=1s", "jobqueue.reaper-interval=200ms",
					"jobqueue.poll-interval=200ms")
			.run(context -> {
				JobQueue jobs = context.getBean(JobQueue.class);
				List<Long> ids = IntStream.range(0, JOBS).mapToObj(i -> jobs.enqueue("hold-connection", i)).toList();

				await().atMost(Duration.ofMinutes(2))
					.until(() -> ids.stream().allMatch(id -> jobs.find(id).orElseThrow().state() == JobState.succeeded));

				assertThat(ids).allSatisfy(id -> assertThat(jobs.find(id).orElseThrow().attempt())
					.as("attempts of job %d", id)
					.isEqualTo(1));
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Handlers {

		private final JdbcClient jdbc;

		Handlers(DataSource dataSource) {
			this.jdbc = JdbcClient.create(dataSource);
		}

		/** Its transaction holds one of the application's connections from before it starts to its commit. */
		@JobHandler(value = "hold-connection", transactional = true)
		void holdConnection(int number) throws InterruptedException {
			jdbc.sql("SELECT 1").query().listOfRows();
			Thread.sleep(3000);
		}
	}
}
