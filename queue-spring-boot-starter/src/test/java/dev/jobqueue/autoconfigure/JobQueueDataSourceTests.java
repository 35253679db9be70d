package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.zaxxer.hikari.HikariDataSource;

import dev.jobqueue.JobQueue;
import dev.jobqueue.spring.JobQueueDataSource;

class JobQueueDataSourceTests {

	@Test
	void aDataSourceQualifiedJobQueueDataSourceHoldsTheQueueWhileTheApplicationKeepsItsOwn() {
		String applicationUrl = PostgresSchemas.fresh("starter_application_ds");
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JobQueueAutoConfiguration.class))
			.withUserConfiguration(QueueDataSourceConfiguration.class)
			.withPropertyValues("spring.datasource.url=" + applicationUrl, "jobqueue.worker.enabled=false")
			.run(context -> {
				assertThat(context).hasNotFailed();
				DataSource application = context.getBean(DataSource.class);
				assertThat(((HikariDataSource) application).getJdbcUrl()).isEqualTo(applicationUrl);
				long id = context.getBean(JobQueue.class).enqueue("report", "weekly");
				assertThat(jobIds(context.getBean("queueDataSource", DataSource.class))).containsExactly(id);
				assertThat(hasJobTable(application)).isFalse();
			});
	}

	private static List<Long> jobIds(DataSource dataSource) {
		return JdbcClient.create(dataSource).sql("SELECT id FROM jobqueue_job").query(Long.class).list();
	}

	private static boolean hasJobTable(DataSource dataSource) {
		return JdbcClient.create(dataSource)
			.sql("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() "
					+ "AND table_name = 'jobqueue_job'")
			.query(Long.class)
			.single() > 0;
	}

	@Configuration(proxyBeanMethods = false)
	static class QueueDataSourceConfiguration {

		@Bean(defaultCandidate = false, destroyMethod = "close")
		@JobQueueDataSource
		HikariDataSource queueDataSource() {
			HikariDataSource dataSource = new HikariDataSource();
			dataSource.setJdbcUrl(PostgresSchemas.fresh("starter_queue_ds"));
			return dataSource;
		}
	}
}
