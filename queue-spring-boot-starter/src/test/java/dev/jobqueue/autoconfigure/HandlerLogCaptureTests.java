package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.jobqueue.JobLog;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.spring.JobHandler;

/** jobqueue.worker.capture-logs: what a handler's thread logs through SLF4J is kept with its job, when asked. */
class HandlerLogCaptureTests {

	private static final Logger log = LoggerFactory.getLogger(HandlerLogCaptureTests.class);

	@Test
	void aHandlersSlf4jLinesAreKeptWithItsJobWhenCaptured() throws IOException {
		application("jobqueue.worker.capture-logs=true").run(context -> {
			JobQueue queue = context.getBean(JobQueue.class);
			long id = queue.enqueue("greet", "Ada");
			log.info("not a handler's thread: kept by no job");

			await().atMost(Duration.ofSeconds(20)).until(() -> queue.find(id).orElseThrow().state() == JobState.dead);

			assertThat(queue.log(id).lines()).extracting(JobLog.Line::text)
				.contains("INFO " + Greeter.class.getName() + " - greeting Ada")
				.anySatisfy(line -> assertThat(line).startsWith("WARN " + Greeter.class.getName()
						+ " - giving up (java.lang.IllegalStateException: no mail server)"))
				.noneMatch(line -> line.contains("not a handler's thread"));
		});
	}

	@Test
	void nothingIsCopiedByDefault() throws IOException {
		application().run(context -> {
			JobQueue queue = context.getBean(JobQueue.class);
			long id = queue.enqueue("greet", "Ada");

			await().atMost(Duration.ofSeconds(20)).until(() -> queue.find(id).orElseThrow().state() == JobState.dead);

			assertThat(queue.log(id)).isEqualTo(JobLog.EMPTY);
		});
	}

	private static ApplicationContextRunner application(String... properties) throws IOException {
		Path file = Files.createTempFile(Path.of("target"), "starter-log-capture-test", ".db");
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class))
			.withBean(Greeter.class)
			.withPropertyValues("spring.datasource.url=jdbc:sqlite:" + file, "jobqueue.poll-interval=100ms",
					"jobqueue.retry.max-attempts=1")
			.withPropertyValues(properties);
	}

	static class Greeter {

		private static final Logger log = LoggerFactory.getLogger(Greeter.class);

		@JobHandler(kind = "greet")
		void greet(String name) {
			log.info("greeting {}", name);
			log.warn("giving up", new IllegalStateException("no mail server"));
			throw new IllegalStateException("no mail server");
		}
	}
}
