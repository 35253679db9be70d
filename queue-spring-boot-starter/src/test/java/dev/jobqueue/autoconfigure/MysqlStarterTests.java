package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.Job;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.spring.JobHandler;
import dev.jobqueue.store.JobStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The starter on MySQL/MariaDB, the server of {@code JOBQUEUE_TEST_MYSQL_URL}: the dialect detected from the
 * DataSource or named in configuration, the queue's tables migrated, jobs run, the runtime on a pool of its own,
 * and health, metrics and the endpoint reading the queue there.
 */
class MysqlStarterTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class,
				JobQueueTelemetryAutoConfiguration.class, JobQueueMetricsAutoConfiguration.class,
				JobQueueHealthAutoConfiguration.class, JobQueueEndpointAutoConfiguration.class))
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withUserConfiguration(Handlers.class)
		.withPropertyValues("jobqueue.poll-interval=100ms", "management.endpoints.web.exposure.include=jobqueue");

	@Test
	void theDialectIsDetectedFromTheDataSourceAndAJobRuns() {
		runner.withPropertyValues("spring.datasource.url=" + MysqlDatabases.fresh("starter_mysql_detected"))
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(JobStore.class).vendor()).isEqualTo("mysql");
				JobQueue queue = context.getBean(JobQueue.class);

				long id = queue.enqueue("greet", "Zoë");

				await().atMost(WAIT).until(() -> queue.find(id).map(Job::state).orElseThrow() == JobState.succeeded);
				assertThat(context.getBean(Handlers.class).greeted).containsExactly("Zoë");
			});
	}

	@Test
	void aDialectNamedMysqlInConfigurationIsTheStoresAndItsSchemaLocation() {
		runner.withPropertyValues("spring.datasource.url=" + MysqlDatabases.fresh("starter_mysql_named"),
				"jobqueue.dialect=mysql")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(JobStore.class).vendor()).isEqualTo("mysql");
				DataSource dataSource = context.getBean(DataSource.class);
				assertThat(JdbcClient.create(dataSource)
					.sql("SELECT count(*) FROM jobqueue_schema_history WHERE success = 1")
					.query(Long.class)
					.single()).isPositive();
			});
	}

	/** At READ COMMITTED, whatever the application's pool: no gap locks of REPEATABLE READ on the runtime's path. */
	@Test
	void aDialectNamedMariadbIsTheMysqlOne() {
		runner.withPropertyValues("spring.datasource.url=" + MysqlDatabases.fresh("starter_mysql_named"),
				"jobqueue.dialect=mariadb", "jobqueue.worker.enabled=false")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(JobStore.class).vendor()).isEqualTo("mysql");
			});
	}

	@Test
	void theRuntimeHasAPoolOfItsOwnAtReadCommittedWhoseSocketTimeoutIsInTheDriversMilliseconds() {
		runner.withPropertyValues("spring.datasource.url=" + MysqlDatabases.fresh("starter_mysql_pool"),
				"spring.datasource.hikari.maximum-pool-size=3", "jobqueue.heartbeat-interval=2s")
			.run(context -> {
				assertThat(context).hasNotFailed();
				HikariDataSource own = (HikariDataSource) context.getBean(RuntimeConnections.class).dataSource();
				assertThat(own).isNotSameAs(context.getBean(DataSource.class));
				assertThat(own.getMaximumPoolSize()).as("the default queue's poller, plus seven").isEqualTo(8);
				assertThat(own.getDataSourceProperties()).containsEntry("socketTimeout", "3000");
				assertThat(own.getTransactionIsolation()).isEqualTo("TRANSACTION_READ_COMMITTED");
			});
	}

	@Test
	void healthMetricsAndTheEndpointReadTheQueueOnMysql() {
		runner.withPropertyValues("spring.datasource.url=" + MysqlDatabases.fresh("starter_mysql_telemetry"),
				"jobqueue.worker.enabled=false")
			.run(context -> {
				JobQueue queue = context.getBean(JobQueue.class);
				queue.enqueue("greet", "Ada");
				long grace = queue.enqueue("greet", "Grace");

				Health health = context.getBean(JobQueueHealthIndicator.class).health(true);
				assertThat(health.getStatus()).isEqualTo(Status.UP);
				assertThat(health.getDetails()).containsEntry("database", "mysql");

				JobQueueEndpoint.Overview overview = context.getBean(JobQueueEndpoint.class).overview();
				assertThat(overview.database()).isEqualTo("mysql");
				assertThat(overview.queues().get("default")).containsEntry(JobState.ready, 2L);
				JobQueueEndpoint endpoint = context.getBean(JobQueueEndpoint.class);
				assertThat(endpoint.job(grace, "payload")).containsEntry("payload", "Grace");
				assertThat(endpoint.act(grace, "cancel").getBody()).containsEntry("changed", true)
					.containsEntry("state", JobState.cancelled);

				// Bound as Boot's metrics auto-configuration binds every MeterBinder, which this context leaves out.
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(JobCountGauges.class).bindTo(meters);
				context.getBean(QueueHealthGauges.class).bindTo(meters);
				context.getBean(QueueHealthSampler.class).runOnce();
				assertThat(meters.get("jobqueue.queue.oldest.ready.age").tags("queue", "default").gauge().value())
					.isNotNegative();
				assertThat(meters.get("jobqueue.jobs").tags("queue", "default", "state", "ready").gauge().value())
					.isOne();
				assertThat(meters.find("jobqueue.postgres.dead.rows").gauge()).as("PostgreSQL's table health only")
					.isNull();
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Handlers {

		final List<String> greeted = new CopyOnWriteArrayList<>();

		@JobHandler("greet")
		void greet(String name) {
			greeted.add(name);
		}
	}
}
