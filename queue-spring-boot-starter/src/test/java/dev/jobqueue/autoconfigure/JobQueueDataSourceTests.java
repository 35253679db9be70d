package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.zaxxer.hikari.HikariDataSource;

import dev.jobqueue.EnqueueOptions;
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

	@Test
	void aBatchTheQueuesDatabaseRefusesPartWayInsideAnApplicationTransactionLeavesNoJob() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class))
			.withUserConfiguration(QueueDataSourceConfiguration.class)
			.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_application_batch"),
					"jobqueue.worker.enabled=false")
			.run(context -> {
				DataSource queueDataSource = context.getBean("queueDataSource", DataSource.class);
				refuseKindPoison(queueDataSource);
				JdbcClient application = JdbcClient.create(context.getBean(DataSource.class));
				application.sql("CREATE TABLE app_effect (id int)").update();
				List<JobQueue.NewJobRequest> batch = List.of(new JobQueue.NewJobRequest("report", "a"),
						new JobQueue.NewJobRequest("report", "b", EnqueueOptions.defaults().uniqueKey("b")),
						new JobQueue.NewJobRequest("poison", "c", EnqueueOptions.defaults().uniqueKey("c")));

				new TransactionTemplate(context.getBean(PlatformTransactionManager.class)).executeWithoutResult(tx -> {
					application.sql("INSERT INTO app_effect VALUES (1)").update();
					assertThatExceptionOfType(DataAccessException.class)
						.isThrownBy(() -> context.getBean(JobQueue.class).enqueueAll(batch));
					application.sql("INSERT INTO app_effect VALUES (2)").update();
				});

				assertThat(jobIds(queueDataSource)).isEmpty();
				assertThat(application.sql("SELECT id FROM app_effect ORDER BY id").query(Integer.class).list())
					.containsExactly(1, 2);
			});
	}

	/** A trigger that refuses jobs of kind poison, as a constraint would: a failure only the database finds. */
	private static void refuseKindPoison(DataSource dataSource) {
		JdbcClient jdbc = JdbcClient.create(dataSource);
		jdbc.sql("""
				CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
				BEGIN
				    RAISE EXCEPTION 'job of kind poison refused' USING ERRCODE = 'check_violation';
				END $$""").update();
		jdbc.sql("""
				CREATE TRIGGER refuse_poison BEFORE INSERT ON jobqueue_job
				FOR EACH ROW WHEN (NEW.kind = 'poison') EXECUTE FUNCTION refuse_poison()""").update();
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
