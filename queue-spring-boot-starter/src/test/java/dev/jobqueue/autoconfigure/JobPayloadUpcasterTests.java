package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.spring.JobHandler;
import dev.jobqueue.spring.JobPayloadUpcaster;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link JobPayloadUpcaster} methods: found beside the handlers, checked at startup (each failure naming
 * bean and method), and applied in order to jobs an older version of the application enqueued.
 */
class JobPayloadUpcasterTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JobQueueAutoConfiguration.class))
		.withUserConfiguration(StubStoreConfiguration.class)
		.withPropertyValues("jobqueue.initialize-schema=never", "jobqueue.worker.enabled=false");

	@Test
	void upcastersAreRegisteredByKindAndVersionBesideTheirHandlersVersion() {
		runner.withUserConfiguration(MailV3.class, MailUpcasters.class).run(context -> {
			assertThat(context).hasNotFailed();
			HandlerRegistry registry = context.getBean(HandlerRegistry.class);
			assertThat(registry.handlerFor("send-mail").orElseThrow().version()).isEqualTo(3);
			assertThat(registry.servedVersions()).containsEntry("send-mail", 3);
			assertThat(registry.upcasterFrom("send-mail", 1).orElseThrow().description())
				.isEqualTo("bean 'mailUpcasters' method " + MailUpcasters.class.getName() + ".addGreeting(JsonNode)");
			JsonNode v1 = JsonMapper.builder().build().readTree("{\"address\":\"ada@example.com\"}");
			JsonNode v2 = registry.upcasterFrom("send-mail", 1).orElseThrow().upcaster().upcast(v1);
			JsonNode v3 = registry.upcasterFrom("send-mail", 2).orElseThrow().upcaster().upcast(v2);
			assertThat(v3.toString()).isEqualTo("{\"greeting\":\"Hello\",\"to\":\"ada@example.com\"}");
		});
	}

	@Test
	void noUpcastersAtAllIsLegal() {
		runner.withUserConfiguration(MailV3.class).run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void aChainThatStartsAboveVersionOneIsLegal() {
		runner.withUserConfiguration(MailV3.class, SecondStepOnly.class)
			.run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void anUpcasterOfAKindNoHandlerServesFailsTheStartupNamingBeanAndMethod() {
		assertStartupFails(List.of(MailUpcasters.class), "Upcaster bean 'mailUpcasters' method "
				+ MailUpcasters.class.getName() + ".addGreeting(JsonNode) is declared for kind 'send-mail', which no "
				+ "handler here serves");
	}

	@Test
	void anUpcasterFromTheHandlersVersionOrLaterFailsTheStartupNamingBeanAndMethod() {
		assertStartupFails(List.of(MailV3.class, MailUpcasters.class, FromThree.class), "Upcaster bean 'fromThree' "
				+ "method " + FromThree.class.getName() + ".upcast(JsonNode) of kind 'send-mail' upcasts from version 3,"
				+ " but bean 'mailV3' method " + MailV3.class.getName() + ".send(Mail) reads version 3");
	}

	@Test
	void anUpcasterFromVersionZeroFailsTheStartupNamingBeanAndMethod() {
		assertStartupFails(List.of(MailV3.class, FromZero.class), "@JobPayloadUpcaster bean 'fromZero' method "
				+ FromZero.class.getName() + ".upcast(JsonNode) upcasts from version 0; payload versions start at 1");
	}

	@Test
	void twoUpcastersOfOneKindAndVersionFailTheStartupNamingBoth() {
		assertStartupFails(List.of(MailV3.class, MailUpcasters.class, SecondStepOnly.class),
				"Duplicate upcaster of kind 'send-mail' from version 2", "bean 'mailUpcasters' method "
						+ MailUpcasters.class.getName() + ".renameAddress(JsonNode)",
				"bean 'secondStepOnly' method " + SecondStepOnly.class.getName() + ".renameAddress(JsonNode)");
	}

	@Test
	void aGapInAChainFailsTheStartupNamingTheMissingStep() {
		assertStartupFails(List.of(MailV4.class, FirstAndThirdSteps.class), "Upcasters of kind 'send-mail' leave a "
				+ "gap on the way to version 4 of bean 'mailV4' method " + MailV4.class.getName()
				+ ".send(Mail): no upcaster from version 2 is declared", "from 1 by bean 'firstAndThirdSteps' method "
						+ FirstAndThirdSteps.class.getName() + ".first(JsonNode)");
	}

	@Test
	void aMethodThatDoesNotTakeAndReturnAJsonNodeFailsTheStartupNamingBeanAndMethod() {
		assertStartupFails(List.of(MailV3.class, WrongSignature.class), "@JobPayloadUpcaster bean 'wrongSignature' "
				+ "method " + WrongSignature.class.getName() + ".upcast(String) must take one JsonNode and return a "
				+ "JsonNode");
	}

	@Test
	void aHandlerOfVersionZeroFailsTheStartupNamingBeanAndMethod() {
		assertStartupFails(List.of(MailV0.class), "@JobHandler bean 'mailV0' method " + MailV0.class.getName()
				+ ".send(Mail) has an invalid version 0");
	}

	@Test
	void jobsAnOlderDeployEnqueuedRunOnTheNewOneThroughTheUpcasterChain() throws IOException {
		Path file = Files.createTempFile(Path.of("target"), "starter-upcaster-test", ".db");
		ApplicationContextRunner onSqlite = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:sqlite:" + file, "jobqueue.poll-interval=100ms");
		AtomicLong id = new AtomicLong();
		onSqlite.withUserConfiguration(MailV1.class).withPropertyValues("jobqueue.worker.enabled=false")
			.run(context -> id.set(context.getBean(JobQueue.class).enqueue("send-mail", new OldMail("ada@example.com"))));

		onSqlite.withUserConfiguration(MailV3.class, MailUpcasters.class).run(context -> {
			JobQueue queue = context.getBean(JobQueue.class);
			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(queue.find(id.get()).orElseThrow().state()).isEqualTo(JobState.succeeded));
			assertThat(context.getBean(MailV3.class).sent).containsExactly(new Mail("Hello", "ada@example.com"));
			assertThat(queue.find(id.get()).orElseThrow().payloadVersion()).isEqualTo(1);
		});
	}

	private void assertStartupFails(List<Class<?>> configurations, String... messages) {
		runner.withUserConfiguration(configurations.toArray(Class<?>[]::new)).run(context -> {
			assertThat(context).hasFailed();
			for (String message : messages) {
				assertThat(context.getStartupFailure()).hasMessageContaining(message);
			}
		});
	}

	/** Version 1 of the payload. */
	record OldMail(String address) {
	}

	/** Version 3: version 2 added a greeting, version 3 renamed the address. */
	record Mail(String greeting, String to) {
	}

	@Configuration(value = "mailV1", proxyBeanMethods = false)
	static class MailV1 {

		@JobHandler("send-mail")
		void send(OldMail mail) {
		}
	}

	@Configuration(value = "mailV3", proxyBeanMethods = false)
	static class MailV3 {

		final List<Mail> sent = new CopyOnWriteArrayList<>();

		@JobHandler(kind = "send-mail", version = 3)
		void send(Mail mail) {
			sent.add(mail);
		}
	}

	@Configuration(value = "mailV4", proxyBeanMethods = false)
	static class MailV4 {

		@JobHandler(kind = "send-mail", version = 4)
		void send(Mail mail) {
		}
	}

	@Configuration(value = "mailV0", proxyBeanMethods = false)
	static class MailV0 {

		@JobHandler(kind = "send-mail", version = 0)
		void send(Mail mail) {
		}
	}

	@Configuration(value = "mailUpcasters", proxyBeanMethods = false)
	static class MailUpcasters {

		@JobPayloadUpcaster(kind = "send-mail", from = 1)
		ObjectNode addGreeting(JsonNode v1) {
			return ((ObjectNode) v1).deepCopy().put("greeting", "Hello");
		}

		@JobPayloadUpcaster(kind = "send-mail", from = 2)
		JsonNode renameAddress(JsonNode v2) {
			ObjectNode v3 = ((ObjectNode) v2).deepCopy();
			return v3.set("to", v3.remove("address"));
		}
	}

	@Configuration(value = "secondStepOnly", proxyBeanMethods = false)
	static class SecondStepOnly {

		@JobPayloadUpcaster(kind = "send-mail", from = 2)
		JsonNode renameAddress(JsonNode v2) {
			return v2;
		}
	}

	@Configuration(value = "firstAndThirdSteps", proxyBeanMethods = false)
	static class FirstAndThirdSteps {

		@JobPayloadUpcaster(kind = "send-mail", from = 1)
		JsonNode first(JsonNode payload) {
			return payload;
		}

		@JobPayloadUpcaster(kind = "send-mail", from = 3)
		JsonNode third(JsonNode payload) {
			return payload;
		}
	}

	@Configuration(value = "fromThree", proxyBeanMethods = false)
	static class FromThree {

		@JobPayloadUpcaster(kind = "send-mail", from = 3)
		JsonNode upcast(JsonNode payload) {
			return payload;
		}
	}

	@Configuration(value = "fromZero", proxyBeanMethods = false)
	static class FromZero {

		@JobPayloadUpcaster(kind = "send-mail", from = 0)
		JsonNode upcast(JsonNode payload) {
			return payload;
		}
	}

	@Configuration(value = "wrongSignature", proxyBeanMethods = false)
	static class WrongSignature {

		@JobPayloadUpcaster(kind = "send-mail", from = 1)
		JsonNode upcast(String payload) {
			return null;
		}
	}
}
