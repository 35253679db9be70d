package dev.jobqueue.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.core.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.spring.JobHandler;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * On SQLite, with a poll interval of an hour, a job committed by another process (here: connections of
 * its own, outside the application's pool) runs at once only because the change watcher saw the commit.
 */
class SqliteCrossProcessWakeupTests {

	@Test
	void aJobCommittedByAnotherProcessWakesTheWorkers() throws IOException {
		Path file = Files.createTempFile(Path.of("target"), "starter-wakeup-test", ".db");
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class))
			.withUserConfiguration(Handlers.class)
			.withPropertyValues("spring.datasource.url=jdbc:sqlite:" + file, "jobqueue.poll-interval=1h")
			.run(context -> {
				// Past the pollers' first claim, which finds nothing; from here only a wakeup can start the job.
				Thread.sleep(300);

				otherProcess(file).enqueue("note", "from elsewhere");

				await().atMost(Duration.ofSeconds(10)).untilAsserted(
						() -> assertThat(context.getBean(Handlers.class).notes).containsExactly("from elsewhere"));
			});
	}

	private static JobQueue otherProcess(Path file) {
		return new JdbcJobQueue(JobStores.forDataSource(new DriverManagerDataSource("jdbc:sqlite:" + file)),
				JsonMapper.builder().build(), new HandlerRegistry(), RetryPolicy.DEFAULT,
				JdbcJobQueue.DEFAULT_MAX_PAYLOAD_LENGTH, JobListener.NONE, queue -> {
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
