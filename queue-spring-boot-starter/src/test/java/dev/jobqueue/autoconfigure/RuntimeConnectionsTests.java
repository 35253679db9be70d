package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import com.zaxxer.hikari.HikariDataSource;

import dev.jobqueue.support.SqliteTestDatabase;

/**
 * Where the runtime's connections come from: a pool of its own on PostgreSQL behind Hikari (on MySQL/MariaDB too:
 * {@link MysqlStarterTests}); the application's elsewhere, which a size set too small fails, naming the properties,
 * and a size left to the default grows to ({@link dev.jobqueue.autoconfigure.report.SqlitePoolSizeReportTests}).
 */
class RuntimeConnectionsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class));

	@Test
	void onPostgresTheRuntimeHasAPoolOfItsOwnSizedForItsRoles() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_runtime_pool_test"),
				"spring.datasource.hikari.maximum-pool-size=3", "jobqueue.queues.mail.concurrency=4")
			.run(context -> {
				assertThat(context).hasNotFailed();
				HikariDataSource own = (HikariDataSource) context.getBean(RuntimeConnections.class).dataSource();
				assertThat(own).isNotSameAs(context.getBean(DataSource.class));
				assertThat(own.getMaximumPoolSize()).as("default and mail: two pollers, plus seven").isEqualTo(9);
				assertThat(own.getPoolName()).endsWith("-jobqueue");
				assertThat(own.getDataSourceProperties()).as("a heartbeat interval and a second, in PostgreSQL's seconds")
					.containsEntry("socketTimeout", "11");
			});
	}

	@Test
	void aSharedPoolTooSmallForTheRuntimeFailsTheStartupNamingTheProperties() {
		try (SqliteTestDatabase database = new SqliteTestDatabase()) {
			runner.withPropertyValues("spring.datasource.url=jdbc:sqlite:" + database.file(),
					"spring.datasource.hikari.maximum-pool-size=6", "jobqueue.queues.mail.concurrency=2")
				.run(context -> assertThat(context).hasFailed()
					.getFailure()
					.rootCause()
					.hasMessageContaining("spring.datasource.hikari.maximum-pool-size (6)")
					.hasMessageContaining("needs at least 8")
					.hasMessageContaining("jobqueue.queues.<name>.concurrency"));
		}
	}

	@Test
	void aSharedPoolLargeEnoughStarts() {
		try (SqliteTestDatabase database = new SqliteTestDatabase()) {
			runner.withPropertyValues("spring.datasource.url=jdbc:sqlite:" + database.file(),
					"spring.datasource.hikari.maximum-pool-size=7")
				.run(context -> assertThat(context).hasNotFailed());
		}
	}
}
