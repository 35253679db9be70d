package dev.jobqueue.autoconfigure.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.stereotype.Component;

import dev.jobqueue.JobContext;
import dev.jobqueue.spring.JobHandler;
import dev.jobqueue.spring.JobPayloadUpcaster;
import tools.jackson.databind.JsonNode;

/**
 * A handler or upcaster declared wrong fails a real startup with Spring Boot's report, naming bean and
 * method and saying what to change, and without the starter's stack trace.
 */
@ExtendWith(OutputCaptureExtension.class)
class HandlerDeclarationReportTests {

	@TempDir
	Path folder;

	@Test
	void aDuplicateKindIsReportedNamingBothMethods(CapturedOutput output) {
		startupFails(MailJobs.class, NewsletterJobs.class);

		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\nDuplicate job kind 'send-mail': declared by bean 'mailJobs' method "
					+ MailJobs.class.getName() + ".send(Mail) and by bean 'newsletterJobs' method "
					+ NewsletterJobs.class.getName() + ".sendAgain(Mail)\n")
			.contains("Action:\n\nGive each kind one @JobHandler method: rename the kind of one of them, or remove one.")
			.doesNotContain("at dev.jobqueue.");
	}

	@Test
	void twoPayloadParametersAreReportedWithTheSignatureToUse(CapturedOutput output) {
		startupFails(TwoPayloads.class);

		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\n@JobHandler bean 'twoPayloads' method " + TwoPayloads.class.getName()
					+ ".handle(Mail, String) has two payload parameters (Mail and String); a handler takes one payload "
					+ "parameter and, optionally, a JobContext\n")
			.contains("Action:\n\nGive the method one payload parameter, the type the job's JSON is read into, and "
					+ "optionally a JobContext parameter.")
			.doesNotContain("at dev.jobqueue.");
	}

	@Test
	void aBadRetryAttributeIsReportedWithThePropertyThatReplacesIt(CapturedOutput output) {
		startupFails(BadJitter.class);

		assertThat(output).contains("Description:\n\n@JobHandler bean 'badJitter' method " + BadJitter.class.getName()
				+ ".handle(Mail, JobContext) has an invalid retry setting: ")
			.contains("Action:\n\nFix the attribute, or leave it out to take its jobqueue.retry.* property.");
	}

	@Test
	void aBadTimeoutIsReported(CapturedOutput output) {
		startupFails(BadTimeout.class);

		assertThat(output).contains("Description:\n\n@JobHandler bean 'badTimeout' method "
				+ BadTimeout.class.getName() + ".handle(Mail) has an invalid timeout 'soon'")
			.contains("Action:\n\nGive a positive duration, such as \"30s\" or \"5m\", or leave timeout out to take "
					+ "jobqueue.default-timeout.");
	}

	@Test
	void aBadQueueNameIsReported(CapturedOutput output) {
		startupFails(BadQueue.class);

		assertThat(output).contains("Description:\n\n@JobHandler bean 'badQueue' method " + BadQueue.class.getName()
				+ ".handle(Mail) names an invalid queue: ")
			.contains("Action:\n\nName the queue with 1 to 100 letters, digits, _, . or -, or leave the attribute "
					+ "out for the default queue.");
	}

	@Test
	void anUpcasterOfAKindNoHandlerServesIsReported(CapturedOutput output) {
		startupFails(MailJobs.class, StrayUpcaster.class);

		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\nUpcaster bean 'strayUpcaster' method " + StrayUpcaster.class.getName()
					+ ".upcast(JsonNode)")
			.contains("Action:\n\nGive each kind's upcasters one method per version");
	}

	@Test
	void anUpcasterWithTheWrongSignatureIsReported(CapturedOutput output) {
		startupFails(MailJobs.class, WrongUpcaster.class);

		assertThat(output).contains("Description:\n\n@JobPayloadUpcaster bean 'wrongUpcaster' method "
				+ WrongUpcaster.class.getName() + ".upcast(String) must take one JsonNode and return a JsonNode")
			.contains("Action:\n\nDeclare the method as JsonNode name(JsonNode payload).");
	}

	private void startupFails(Class<?>... sources) {
		Path file = folder.resolve("app.db");
		StartupReports.startupFails(() -> StartupReports.onSqlite(file, List.of(sources)));
		assertThat(Files.exists(file)).as("the database was reached before the handlers were checked").isTrue();
	}

	record Mail(String to) {
	}

	@Component("mailJobs")
	static class MailJobs {

		@JobHandler("send-mail")
		void send(Mail mail) {
		}
	}

	@Component("newsletterJobs")
	static class NewsletterJobs {

		@JobHandler("send-mail")
		void sendAgain(Mail mail) {
		}
	}

	@Component("twoPayloads")
	static class TwoPayloads {

		@JobHandler("two")
		void handle(Mail mail, String extra) {
		}
	}

	@Component("badJitter")
	static class BadJitter {

		@JobHandler(kind = "bad", jitter = 1.5)
		void handle(Mail mail, JobContext context) {
		}
	}

	@Component("badTimeout")
	static class BadTimeout {

		@JobHandler(kind = "bad", timeout = "soon")
		void handle(Mail mail) {
		}
	}

	@Component("badQueue")
	static class BadQueue {

		@JobHandler(kind = "bad", queue = "no spaces please")
		void handle(Mail mail) {
		}
	}

	@Component("strayUpcaster")
	static class StrayUpcaster {

		@JobPayloadUpcaster(kind = "no-such-kind", from = 1)
		JsonNode upcast(JsonNode payload) {
			return payload;
		}
	}

	@Component("wrongUpcaster")
	static class WrongUpcaster {

		@JobPayloadUpcaster(kind = "send-mail", from = 1)
		String upcast(String payload) {
			return payload;
		}
	}
}
