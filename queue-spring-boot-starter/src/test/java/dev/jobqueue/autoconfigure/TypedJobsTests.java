package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import dev.jobqueue.JobArgs;
import dev.jobqueue.JobKind;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.spring.JobHandler;

/**
 * Type-safe jobs in a Spring Boot application, with Boot's own JSON mapper (which ignores unknown
 * properties for the application's JSON): a handler that takes its kind from its payload type, payloads
 * checked at enqueue with unknown properties failing unless {@code jobqueue.payload.fail-on-unknown-properties}
 * says otherwise, and a result read back as a type.
 */
class TypedJobsTests {

	private ApplicationContextRunner onSqlite() throws IOException {
		Path file = Files.createTempFile(Path.of("target"), "starter-typed-jobs-test", ".db");
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class, JacksonAutoConfiguration.class,
					JobQueueAutoConfiguration.class))
			.withUserConfiguration(MailHandler.class)
			.withPropertyValues("spring.datasource.url=jdbc:sqlite:" + file, "jobqueue.poll-interval=100ms");
	}

	@Test
	void aJobArgsPayloadRunsOnTheHandlerOfItsKindAndItsResultReadsBackAsAType() throws IOException {
		onSqlite().run(context -> {
			JobQueue queue = context.getBean(JobQueue.class);
			long id = queue.enqueue(new SendMail("ada@example.com"));

			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(queue.find(id).orElseThrow().state()).isEqualTo(JobState.succeeded));
			assertThat(queue.result(id, Sent.class)).contains(new Sent("ada@example.com", 1));
		});
	}

	@Test
	void aMapWithAMisspelledFieldIsRefusedAtEnqueueThoughBootsMapperIgnoresUnknownProperties() throws IOException {
		onSqlite().withPropertyValues("jobqueue.worker.enabled=false").run(context -> {
			JobQueue queue = context.getBean(JobQueue.class);

			assertThatIllegalArgumentException().isThrownBy(() -> queue.enqueue("send-mail", Map.of("too", "x")))
				.withMessageContaining("reads " + SendMail.class.getName())
				.withMessageContaining("\"too\"");
			assertThatIllegalArgumentException().isThrownBy(() -> queue.enqueue("send-mail", new Sent("x", 1)))
				.withMessageContaining("is a " + Sent.class.getName());
		});
	}

	@Test
	void aMapWithAnUnknownFieldIsAcceptedWhenThePropertySaysSo() throws IOException {
		onSqlite().withPropertyValues("jobqueue.worker.enabled=false", "jobqueue.payload.fail-on-unknown-properties=false")
			.run(context -> {
				JobQueue queue = context.getBean(JobQueue.class);
				long id = queue.enqueue("send-mail", Map.of("to", "ada@example.com", "cc", "bob@example.com"));
				assertThat(queue.find(id).orElseThrow().payload()).contains("cc");
			});
	}

	@JobKind("send-mail")
	record SendMail(String to) implements JobArgs {
	}

	record Sent(String to, int messages) {
	}

	@Configuration(proxyBeanMethods = false)
	static class MailHandler {

		@JobHandler
		Sent send(SendMail mail) {
			return new Sent(mail.to(), 1);
		}
	}
}
