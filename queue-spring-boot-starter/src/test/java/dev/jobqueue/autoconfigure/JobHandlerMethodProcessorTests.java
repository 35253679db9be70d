package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import dev.jobqueue.JobArgs;
import dev.jobqueue.JobContext;
import dev.jobqueue.JobKind;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobHandlerDefinition.KeyLimits;
import dev.jobqueue.spring.JobHandler;

class JobHandlerMethodProcessorTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JobQueueAutoConfiguration.class))
		.withUserConfiguration(StubStoreConfiguration.class)
		.withPropertyValues("jobqueue.initialize-schema=never", "jobqueue.worker.enabled=false");

	@Test
	void aHandlerMethodIsRegisteredWithItsGenericPayloadTypeQueueAndRetryPolicy() {
		runner.withUserConfiguration(MailHandlers.class).run(context -> {
			JobHandlerDefinition mail = definition(context.getBean(HandlerRegistry.class), "send-mail");
			assertThat(mail.queue()).isEqualTo("mail");
			assertThat(mail.payloadType().getTypeName()).isEqualTo("java.util.List<" + Mail.class.getName() + ">");
			assertThat(mail.transactional()).isTrue();
			assertThat(mail.retryPolicy()).isEqualTo(new RetryPolicy(5, Duration.ofMillis(500), Duration.ofHours(1),
					3.0, 0.2));
			assertThat(mail.timeout()).isEqualTo(Duration.ofMinutes(5));
			assertThat(mail.description()).isEqualTo("bean 'mailHandlers' method "
					+ MailHandlers.class.getName() + ".send(List, JobContext)");
		});
	}

	@Test
	void aHandlerWithoutRetryAttributesTakesTheConfiguredPolicyAndTheDefaultQueue() {
		runner.withUserConfiguration(MailHandlers.class).run(context -> {
			JobHandlerDefinition report = definition(context.getBean(HandlerRegistry.class), "report");
			assertThat(report.queue()).isEqualTo("default");
			assertThat(report.retryPolicy()).isNull();
			assertThat(report.transactional()).isFalse();
			assertThat(report.timeout()).as("the runtime's default").isNull();
		});
	}

	@Test
	void theMethodIsCalledWithPayloadAndContextAndItsReturnValueIsTheResult() {
		runner.withUserConfiguration(MailHandlers.class).run(context -> {
			JobContext jobContext = mock(JobContext.class);
			Object result = definition(context.getBean(HandlerRegistry.class), "send-mail").function()
				.handle(List.of(new Mail("ada@example.com"), new Mail("alan@example.com")), jobContext);
			assertThat(result).isEqualTo("sent 2");
			assertThat(definition(context.getBean(HandlerRegistry.class), "report").function()
				.handle(new Mail("x"), jobContext)).isNull();
		});
	}

	@Test
	void anExceptionFromTheMethodIsThrownAsItIsNotWrapped() {
		runner.withUserConfiguration(FailingHandlers.class).run(context -> {
			JobHandlerDefinition failing = definition(context.getBean(HandlerRegistry.class), "fail");
			assertThatThrownBy(() -> failing.function().handle(new Mail("x"), null))
				.isInstanceOf(IOException.class)
				.hasMessage("mail server said no");
		});
	}

	@Test
	void aDuplicateKindFailsTheStartupNamingBothMethods() {
		runner.withUserConfiguration(MailHandlers.class, DuplicateHandlers.class).run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("Duplicate job kind 'send-mail'")
				.hasMessageContaining("bean 'mailHandlers' method " + MailHandlers.class.getName() + ".send(List, JobContext)")
				.hasMessageContaining("bean 'duplicateHandlers' method " + DuplicateHandlers.class.getName()
						+ ".sendAgain(Mail)");
		});
	}

	@Test
	void anExternalKindThatAHandlerHereServesFailsTheStartupNamingThePropertyAndTheHandler() {
		runner.withUserConfiguration(MailHandlers.class)
			.withPropertyValues("jobqueue.external-kinds=partner-sync,report")
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(JobQueueStartupException.class)
					.hasMessageContaining("jobqueue.external-kinds names 'report'")
					.hasMessageContaining("bean 'mailHandlers' method " + MailHandlers.class.getName() + ".report(Mail)");
			});
	}

	@Test
	void twoPayloadParametersFailTheStartupNamingBeanAndMethod() {
		assertStartupFails(TwoPayloads.class, "@JobHandler bean 'twoPayloads' method " + TwoPayloads.class.getName()
				+ ".handle(Mail, String) has two payload parameters (Mail and String)");
	}

	@Test
	void noPayloadParameterFailsTheStartup() {
		assertStartupFails(NoPayload.class, "@JobHandler bean 'noPayload' method " + NoPayload.class.getName()
				+ ".handle(JobContext) has no payload parameter");
	}

	@Test
	void aMissingKindFailsTheStartup() {
		assertStartupFails(NoKind.class, "method " + NoKind.class.getName() + ".handle(Mail) names no kind");
	}

	@Test
	void anInvalidRetryAttributeFailsTheStartup() {
		assertStartupFails(BadBackoff.class, "method " + BadBackoff.class.getName()
				+ ".handle(Mail) has an invalid retry setting");
	}

	@Test
	void aTimeoutThatIsNoDurationFailsTheStartupNamingBeanAndMethod() {
		assertStartupFails(BadTimeout.class, "@JobHandler bean 'badTimeout' method " + BadTimeout.class.getName()
				+ ".handle(Mail) has an invalid timeout 'soon'");
	}

	@Test
	void aTimeoutOfZeroFailsTheStartupNamingBeanAndMethod() {
		assertStartupFails(ZeroTimeout.class, "@JobHandler bean 'zeroTimeout' method " + ZeroTimeout.class.getName()
				+ ".handle(Mail) has an invalid timeout '0s'");
	}

	@Test
	void concurrencyAttributesReachTheDefinition() {
		runner.withUserConfiguration(LimitedHandlers.class).run(context -> {
			HandlerRegistry handlers = context.getBean(HandlerRegistry.class);
			assertThat(definition(handlers, "ordered").keyLimits()).isEqualTo(new KeyLimits(1, true, 0));
			assertThat(definition(handlers, "partner").keyLimits()).isEqualTo(new KeyLimits(1, false, 4));
			assertThat(definition(handlers, "rated").keyLimits())
				.isEqualTo(new KeyLimits(1, false, 0, 10, Duration.ofMinutes(1)));
		});
	}

	@Test
	void aRateLimitThatIsNoRateFailsTheStartupNamingBeanAndMethod() {
		assertStartupFails(BadRate.class, "@JobHandler bean 'badRate' method " + BadRate.class.getName()
				+ ".handle(Mail) has invalid concurrency options: rateLimit 'often' is not starts/period, such as 10/1s");
	}

	@Test
	void aRateLimitWithAClusterWideLimitFailsTheStartup() {
		assertStartupFails(RateAndCluster.class, "@JobHandler bean 'rateAndCluster' method "
				+ RateAndCluster.class.getName() + ".handle(Mail) has invalid concurrency options: clusterConcurrency "
				+ "excludes rateLimit");
	}

	@Test
	void aHandlerWithoutAKindTakesTheKindItsJobArgsTypeNames() {
		runner.withUserConfiguration(TypedHandlers.class).run(context -> {
			JobHandlerDefinition typed = definition(context.getBean(HandlerRegistry.class), "send-typed-mail");
			assertThat(typed.payloadType()).isEqualTo(TypedMail.class);
			assertThat(definition(context.getBean(HandlerRegistry.class), "named").payloadType())
				.as("a kind on the annotation wins").isEqualTo(TypedMail.class);
		});
	}

	@Test
	void aHandlerWithoutAKindWhosePayloadTypeNamesNoneFailsTheStartupSayingWhatToDo() {
		runner.withUserConfiguration(UnnamedArgs.class).run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOfSatisfying(JobQueueStartupException.class, failure -> {
					assertThat(failure).hasMessage("@JobHandler bean 'unnamedArgs' method " + UnnamedArgs.class.getName()
							+ ".handle(Unnamed) names no kind, and its payload type Unnamed names none with @JobKind");
					assertThat(failure.action()).isEqualTo("Name the kind of job the method handles: "
							+ "@JobHandler(\"send-mail\"), or annotate the payload type, a JobArgs, with it: "
							+ "@JobKind(\"send-mail\") record Unnamed(…) implements JobArgs.");
				});
		});
	}

	@Test
	void aPayloadParameterAnnotatedWithAnyNullableIsNullable() {
		runner.withUserConfiguration(NullableHandlers.class).run(context -> {
			HandlerRegistry registry = context.getBean(HandlerRegistry.class);
			assertThat(definition(registry, "spring").payloadNullable()).isTrue();
			assertThat(definition(registry, "jspecify").payloadNullable()).isTrue();
			assertThat(definition(registry, "own").payloadNullable()).isTrue();
			assertThat(definition(registry, "plain").payloadNullable()).isFalse();
		});
	}

	private void assertStartupFails(Class<?> handlers, String message) {
		runner.withUserConfiguration(handlers).run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining(message);
		});
	}

	private static JobHandlerDefinition definition(HandlerRegistry registry, String kind) {
		return registry.handlerFor(kind).orElseThrow();
	}

	@JobKind("send-typed-mail")
	record TypedMail(String to) implements JobArgs {
	}

	record Unnamed(String to) implements JobArgs {
	}

	@Configuration(value = "typedHandlers", proxyBeanMethods = false)
	static class TypedHandlers {

		@JobHandler
		void send(TypedMail mail) {
		}

		@JobHandler("named")
		void sendNamed(TypedMail mail) {
		}
	}

	@Configuration(value = "unnamedArgs", proxyBeanMethods = false)
	static class UnnamedArgs {

		@JobHandler
		void handle(Unnamed unnamed) {
		}
	}

	/** An annotation of the application's own, recognised by its simple name. */
	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.PARAMETER)
	@interface Nullable {
	}

	@Configuration(value = "nullableHandlers", proxyBeanMethods = false)
	@SuppressWarnings("deprecation") // Spring's own Nullable, deprecated for JSpecify's, which applications still use
	static class NullableHandlers {

		@JobHandler("spring")
		void spring(@org.springframework.lang.Nullable Mail mail) {
		}

		@JobHandler("jspecify")
		void jspecify(@org.jspecify.annotations.Nullable Mail mail) {
		}

		@JobHandler("own")
		void own(@Nullable Mail mail, JobContext context) {
		}

		@JobHandler("plain")
		void plain(Mail mail) {
		}
	}

	record Mail(String to) {
	}

	@Configuration(value = "mailHandlers", proxyBeanMethods = false)
	static class MailHandlers {

		@JobHandler(kind = "send-mail", queue = "mail", maxAttempts = 5, initialBackoff = "500ms", multiplier = 3,
				transactional = true, timeout = "5m")
		String send(List<Mail> mails, JobContext context) {
			return "sent " + mails.size();
		}

		@JobHandler("report")
		void report(Mail mail) {
		}
	}

	@Configuration(value = "duplicateHandlers", proxyBeanMethods = false)
	static class DuplicateHandlers {

		@JobHandler("send-mail")
		void sendAgain(Mail mail) {
		}
	}

	@Configuration(value = "failingHandlers", proxyBeanMethods = false)
	static class FailingHandlers {

		@JobHandler("fail")
		void fail(Mail mail) throws IOException {
			throw new IOException("mail server said no");
		}
	}

	@Configuration(value = "twoPayloads", proxyBeanMethods = false)
	static class TwoPayloads {

		@JobHandler("two")
		void handle(Mail mail, String extra) {
		}
	}

	@Configuration(value = "noPayload", proxyBeanMethods = false)
	static class NoPayload {

		@JobHandler("none")
		void handle(JobContext context) {
		}
	}

	@Configuration(value = "noKind", proxyBeanMethods = false)
	static class NoKind {

		@JobHandler
		void handle(Mail mail) {
		}
	}

	@Configuration(value = "badBackoff", proxyBeanMethods = false)
	static class BadBackoff {

		@JobHandler(kind = "bad", jitter = 1.5)
		void handle(Mail mail) {
		}
	}

	@Configuration(value = "badTimeout", proxyBeanMethods = false)
	static class BadTimeout {

		@JobHandler(kind = "bad", timeout = "soon")
		void handle(Mail mail) {
		}
	}

	@Configuration(value = "zeroTimeout", proxyBeanMethods = false)
	static class ZeroTimeout {

		@JobHandler(kind = "zero", timeout = "0s")
		void handle(Mail mail) {
		}
	}

	static class LimitedHandlers {

		@JobHandler(kind = "ordered", deadJobBlocksKey = true)
		void ordered(Mail mail) {
		}

		@JobHandler(kind = "partner", clusterConcurrency = 4)
		void partner(Mail mail) {
		}

		@JobHandler(kind = "rated", rateLimit = "10/1m")
		void rated(Mail mail) {
		}
	}

	@Configuration(value = "badRate", proxyBeanMethods = false)
	static class BadRate {

		@JobHandler(kind = "bad-rate", rateLimit = "often")
		void handle(Mail mail) {
		}
	}

	@Configuration(value = "rateAndCluster", proxyBeanMethods = false)
	static class RateAndCluster {

		@JobHandler(kind = "both", rateLimit = "1/1s", clusterConcurrency = 2)
		void handle(Mail mail) {
		}
	}
}
