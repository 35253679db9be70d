package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.jobqueue.autoconfigure.JobQueueAutoConfiguration;

/**
 * Scenario 9: names in configuration that would reach SQL, or anything else that takes them at their word,
 * are refused at startup with the property named, before a connection is opened or a statement sent.
 */
class PostgresUnsafeConfigurationFaultTest extends FaultScenario {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			jobqueue.queues[mail'; DROP TABLE jobqueue_job; --].concurrency=2 | jobqueue.queues.mail'; DROP TABLE jobqueue_job; --: queue must match [A-Za-z0-9_.-]{1,100}
			jobqueue.queues[mail queue].concurrency=2                         | jobqueue.queues.mail queue: queue must match
			jobqueue.queues[mail\\nINFO forged log line].concurrency=2        | : queue must match
			jobqueue.dialect=postgresql; DROP TABLE jobqueue_job              | jobqueue.dialect must be one of [postgresql
			jobqueue.dialect=../../etc                                        | jobqueue.dialect must be one of
			""")
	void anUnsafeNameIsRefusedAtStartupNamingThePropertyBeforeAnyStatement(String property, String message) {
		CountingDataSource counting = new CountingDataSource(database.dataSource());
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(JobQueueAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class))
			.withBean("dataSource", javax.sql.DataSource.class, counting::dataSource)
			.withPropertyValues(property.replace("\\n", "\n"))
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(message);
			});
		assertThat(counting.statements()).as("statements sent").isZero();
		assertThat(counting.connections()).as("connections opened").isZero();
		assertThat(count("SELECT count(*) FROM information_schema.tables WHERE table_name = 'jobqueue_job'"
				+ " AND table_schema = current_schema()"))
			.as("the queue's table, untouched").isOne();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			jobqueue.queues[mail.eu-1_a].concurrency=2
			jobqueue.dialect=postgresql
			""")
	void aSafeNameStartsTheQueue(String property) {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(JobQueueAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class))
			// Through the proxy, which has no close() for the context to call on the shared pool.
			.withBean("dataSource", javax.sql.DataSource.class, new CountingDataSource(database.dataSource())::dataSource)
			.withPropertyValues(property, "jobqueue.worker.enabled=false")
			.run(context -> assertThat(context).hasNotFailed());
	}
}
