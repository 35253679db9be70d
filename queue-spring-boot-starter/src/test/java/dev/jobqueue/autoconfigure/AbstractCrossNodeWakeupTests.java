package dev.jobqueue.autoconfigure;

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
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.spring.JobHandler;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * On a database server, with a poll interval of an hour, a job enqueued by another node (here: connections of
 * its own, outside the application's pool) runs at once only because the dialect's wake-ups woke the workers
 * (PostgreSQL's notifications, MySQL's change watcher); with {@code jobqueue.notify=false} it waits for the next
 * poll. One subclass per database.
 */
abstract class AbstractCrossNodeWakeupTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class))
		.withUserConfiguration(Handlers.class)
		.withPropertyValues("jobqueue.poll-interval=1h");

	/** The URL of an empty schema or database named {@code name} on the test server. */
	protected abstract String freshDatabaseUrl(String name);

	@Test
	void aJobEnqueuedByAnotherNodeWakesTheWorkers() {
		String url = freshDatabaseUrl("starter_notify");
		runner.withPropertyValues("spring.datasource.url=" + url).run(context -> {
			// Past the pollers' first claim, which finds nothing; from here only a wakeup can start the job.
			Thread.sleep(500);

			otherNode(url).enqueue("note", "from elsewhere");

			await().atMost(Duration.ofSeconds(10)).untilAsserted(
					() -> assertThat(context.getBean(Handlers.class).notes).containsExactly("from elsewhere"));
		});
	}

	@Test
	void withNotificationsOffAJobEnqueuedElsewhereWaitsForThePoll() {
		String url = freshDatabaseUrl("starter_poll_only");
		runner.withPropertyValues("spring.datasource.url=" + url, "jobqueue.notify=false").run(context -> {
			Thread.sleep(500);

			// Even a producer that notifies cannot wake a node that does not listen or watch.
			otherNode(url).enqueue("note", "from elsewhere");

			Thread.sleep(2000);
			assertThat(context.getBean(Handlers.class).notes).isEmpty();
		});
	}

	private static JobQueue otherNode(String url) {
		return new JdbcJobQueue(JobStores.forDataSource(new DriverManagerDataSource(url)),
				JsonMapper.builder().build(), new HandlerRegistry(), RuntimeSettings.defaults(), JobListener.NONE, queue -> {
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
