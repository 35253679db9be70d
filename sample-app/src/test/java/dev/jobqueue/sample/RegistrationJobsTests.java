package dev.jobqueue.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.annotation.Transactional;

import dev.jobqueue.Job;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.sample.RegistrationController.NewUser;
import dev.jobqueue.test.DrainedJob;
import dev.jobqueue.test.JobQueueTester;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The registration's jobs, tested as the README shows: the workers off, what was enqueued asserted, the
 * jobs run by draining them on the test's thread, the delayed report by moving the clock ten seconds on,
 * and run after the user's welcome email, whose concurrency key it shares; the summary after both.
 * Each test is a transaction rolled back at its end, its jobs with it, so that no test drains another's.
 */
@SpringBootTest(properties = { "jobqueue.worker.enabled=false", "sample.mail.failure-rate=0" })
@Transactional
class RegistrationJobsTests {

	@Autowired
	private RegistrationService registrations;

	@Autowired
	private JobQueueTester jobs;

	@Autowired
	private JobQueue queue;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) throws IOException {
		Path file = Files.createTempFile(Path.of("target"), "sample-jobs-test", ".db");
		properties.add("spring.datasource.url", () -> "jdbc:sqlite:" + file);
	}

	@Test
	void aRegistrationEnqueuesTheWelcomeEmailAndTheReportTenSecondsLater() {
		Registration registration = registrations.register(new NewUser("ada@example.com", "Ada"));

		jobs.assertEnqueued(WelcomeEmail.class, mail -> mail.to().equals("ada@example.com"));
		jobs.assertEnqueued(SignupReport.class, report -> report.userId().equals(registration.userId()));

		List<DrainedJob> now = jobs.drain();
		assertThat(now).singleElement().satisfies(job -> {
			assertThat(job.id()).isEqualTo(registration.welcomeEmailJob());
			assertThat(job.succeeded()).isTrue();
		});
		assertThat(queue.find(registration.signupSummaryJob()).orElseThrow().state()).isEqualTo(JobState.waiting);
		List<DrainedJob> tenSecondsLater = jobs.drain(Duration.ofSeconds(10));
		assertThat(tenSecondsLater).extracting(DrainedJob::id)
			.containsExactly(registration.signupReportJob(), registration.signupSummaryJob());
		assertThat(queue.find(registration.signupReportJob()).orElseThrow().result()).contains(registration.userId());
		assertThat(queue.find(registration.signupSummaryJob()).orElseThrow().result())
			.isEqualTo("{\"userId\":\"%s\",\"welcomeEmailSent\":true,\"usersSoFar\":1}".formatted(registration.userId()));
	}

	@Test
	void theReportWaitsBehindTheUsersWelcomeEmailThenRunsAfterIt() {
		Registration registration = registrations.register(new NewUser("grace@example.com", "Grace"));

		jobs.advance(Duration.ofSeconds(10));

		Job report = queue.find(registration.signupReportJob()).orElseThrow();
		assertThat(report.state()).as("past its delay, still behind the email").isEqualTo(JobState.blocked);
		assertThat(report.concurrencyKey()).isEqualTo("user-" + registration.userId());
		assertThat(jobs.drain()).extracting(DrainedJob::id)
			.containsExactly(registration.welcomeEmailJob(), registration.signupReportJob(),
					registration.signupSummaryJob());
	}

	@Test
	void aDuplicateRegistrationEnqueuesNoSecondEmail() {
		registrations.register(new NewUser("alan@example.com", "Alan"));

		assertThatExceptionOfType(DuplicateKeyException.class)
			.isThrownBy(() -> registrations.register(new NewUser("alan@example.com", "Alan again")));

		assertThat(jobs.enqueued(WelcomeEmail.class)).containsExactly(new WelcomeEmail("alan@example.com", "Alan"));
	}

	@Test
	void theWelcomeEmailHandlerRunsInlineOnItsPayload() throws Exception {
		assertThat(jobs.perform(new WelcomeEmail("grace@example.com", "Grace"))).isNull();
	}
}
