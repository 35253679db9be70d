package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.JobQueue;
import dev.jobqueue.spring.JobHandler;

/**
 * With a poll interval of an hour, a job runs at once only because the enqueue woke this node's workers
 * once its transaction committed.
 */
class LocalWakeupTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class))
		.withUserConfiguration(Handlers.class)
		.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_wakeup_test"),
				"jobqueue.poll-interval=1h");

	@Test
	void aCommittedEnqueueWakesTheLocalWorkers() {
		runner.run(context -> {
			JobQueue jobs = context.getBean(JobQueue.class);
			TransactionTemplate transaction = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));

			transaction.executeWithoutResult(status -> jobs.enqueue("note", "committed"));

			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(context.getBean(Handlers.class).notes).containsExactly("committed"));
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Handlers {

		final List<String> notes = new CopyOnWriteArrayList<>();

		@JobHandler("note")
		void note(String note) {
			notes.add(note);
		}
	}
}
