package dev.jobqueue.test.app;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobListener.Outcome;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.test.DrainedJob;
import dev.jobqueue.test.JobQueueTester;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The tester in a full context with the workers off, as the README recommends: assertions on what this
 * test enqueued, drains through the runtime, jobs run inline, the clock moved. One subclass per database.
 */
@SpringBootTest(properties = "jobqueue.worker.enabled=false")
abstract class AbstractJobQueueTesterTests {

	@Autowired
	private JobQueueTester jobs;

	@Autowired
	private JobQueue queue;

	@Autowired
	private MailJobs mail;

	@Autowired
	private JobStore store;

	@Autowired
	private JdbcClient jdbc;

	@BeforeEach
	void forgetSent() {
		mail.sent().clear();
	}

	@AfterEach
	void deleteJobs() {
		jdbc.sql("DELETE FROM jobqueue_job").update();
	}

	@Test
	void aJobEnqueuedInThisTestIsFoundByItsKindAndByItsPayload() {
		long id = queue.enqueue("send-mail", new SendMail("ada@example.com", "Welcome"));

		assertThat(jobs.assertEnqueued("send-mail").id()).isEqualTo(id);
		assertThat(jobs.assertEnqueued(SendMail.class, m -> m.to().equals("ada@example.com")).id()).isEqualTo(id);
		assertThat(jobs.enqueued(SendMail.class)).containsExactly(new SendMail("ada@example.com", "Welcome"));
		assertThat(jobs.enqueued("send-mail")).extracting(Job::state).containsExactly(JobState.ready);
		jobs.assertNotEnqueued("newsletter");
		jobs.assertNotEnqueued(SendMail.class, m -> m.to().equals("alan@example.com"));
	}

	@Test
	void aFailedAssertionListsWhatWasEnqueuedInstead() {
		long mailId = queue.enqueue("send-mail", new SendMail("ada@example.com", "Welcome"));
		queue.enqueue("newsletter", new Newsletter("News", List.of()));

		assertThatThrownBy(() -> jobs.assertEnqueued(SendMail.class, m -> m.to().equals("alan@example.com")))
			.isInstanceOf(AssertionError.class)
			.hasMessageStartingWith("Expected a job of kind 'send-mail' (payload SendMail) that matches the condition "
					+ "enqueued in this test, but none was. Enqueued in this test (2):")
			.hasMessageContaining("#" + mailId + " send-mail (queue default, ready) {\"")
			.hasMessageContaining("ada@example.com")
			.hasMessageContaining("newsletter (queue default, ready)");
		assertThatThrownBy(() -> jobs.assertNotEnqueued("newsletter")).isInstanceOf(AssertionError.class)
			.hasMessageStartingWith("Expected no job of kind 'newsletter' enqueued in this test, but found 1:");
		assertThatThrownBy(() -> jobs.assertEnqueued("signup-report")).isInstanceOf(AssertionError.class)
			.hasMessageContaining("Enqueued in this test (2):");
	}

	@Test
	void jobsEnqueuedBeforeTheResetAreNotThisTests() {
		queue.enqueue("send-mail", new SendMail("ada@example.com", "Welcome"));

		jobs.resetEnqueued();

		jobs.assertNotEnqueued("send-mail");
		assertThat(jobs.enqueued()).isEmpty();
		assertThatThrownBy(() -> jobs.assertEnqueued("send-mail")).hasMessageContaining("Enqueued in this test: none.");
	}

	@Test
	void aPayloadOfAnotherShapeFailsTheAssertionNamingTheJob() {
		// As an older release wrote it: an enqueue here checks the payload against the handler and refuses it.
		long id = store.enqueues().enqueue(new NewJob(RuntimeSettings.DEFAULT_QUEUE, "send-mail", "{\"to\": [1, 2]}", 1,
				EnqueueOptions.DEFAULT_PRIORITY, null, Duration.ZERO, 2, null)).id();

		assertThatThrownBy(() -> jobs.enqueued(SendMail.class)).isInstanceOf(AssertionError.class)
			.hasMessageContaining(
					"The payload of job " + id + " (send-mail) does not bind to " + SendMail.class.getName());
	}

	@Test
	void aPayloadTypeNoHandlerTakesIsRefusedNamingTheHandlers() {
		assertThatIllegalArgumentException().isThrownBy(() -> jobs.assertEnqueued(Duration.class))
			.withMessageContaining("no handler here takes java.time.Duration as its payload")
			.withMessageContaining("send-mail takes " + SendMail.class.getName());
	}

	@Test
	void aDrainRunsTheDueJobsAndThoseTheirHandlersEnqueueAndSaysHowEachEnded() {
		long newsletter = queue.enqueue("newsletter",
				new Newsletter("News", List.of("ada@example.com", "alan@example.com")));

		List<DrainedJob> ran = jobs.drain();

		assertThat(ran).hasSize(3).allMatch(DrainedJob::succeeded);
		assertThat(ran.get(0).id()).isEqualTo(newsletter);
		assertThat(mail.sent()).containsExactlyInAnyOrder("ada@example.com", "alan@example.com");
		assertThat(queue.find(newsletter)).get()
			.extracting(Job::state, Job::result)
			.containsExactly(JobState.succeeded, "2");
		assertThat(jobs.enqueued(SendMail.class)).extracting(SendMail::to)
			.containsExactly("ada@example.com", "alan@example.com");
		assertThat(jobs.drain()).isEmpty();
	}

	@Test
	void aRetryWaitsForItsBackoffUntilTheClockIsAdvancedAndTheLastAttemptIsDead() {
		long id = queue.enqueue("send-mail", new SendMail(MailJobs.BOUNCING, "Welcome"));

		DrainedJob first = single(jobs.drain());
		List<DrainedJob> beforeBackoff = jobs.drain();
		DrainedJob second = single(jobs.drain(Duration.ofHours(1)));

		assertThat(first.outcome()).isEqualTo(Outcome.RETRIED);
		assertThat(first.error()).contains("mailbox bounce@example.com bounced");
		assertThat(beforeBackoff).isEmpty();
		assertThat(second.id()).isEqualTo(id);
		assertThat(second.attempt()).isEqualTo(2);
		assertThat(second.outcome()).isEqualTo(Outcome.DEAD);
		assertThat(queue.find(id)).get().extracting(Job::state).isEqualTo(JobState.dead);
	}

	@Test
	void aDelayedJobIsDueOnceTheClockIsAdvancedPastItsDelay() {
		queue.enqueue("send-mail", new SendMail("ada@example.com", "Reminder"),
				EnqueueOptions.defaults().delay(Duration.ofHours(24)));

		assertThat(jobs.drain()).isEmpty();
		assertThat(jobs.advance(Duration.ofHours(23))).isEqualTo(1);
		assertThat(jobs.drain()).isEmpty();
		assertThat(jobs.drain(Duration.ofHours(1))).singleElement().extracting(DrainedJob::kind).isEqualTo("send-mail");
		assertThat(mail.sent()).containsExactly("ada@example.com");
	}

	@Test
	void aDelayedJobWaitingBehindItsKeyIsDueOnceTheClockIsAdvancedPastItsDelay() {
		EnqueueOptions user = EnqueueOptions.defaults().concurrencyKey("user-7");
		long welcome = queue.enqueue("send-mail", new SendMail("ada@example.com", "Welcome"), user);
		long reminder = queue.enqueue("send-mail", new SendMail("ada@example.com", "Reminder"),
				user.delay(Duration.ofHours(24)));
		assertThat(queue.find(reminder)).get().extracting(Job::state).isEqualTo(JobState.blocked);

		jobs.advance(Duration.ofHours(24));

		assertThat(jobs.drain()).extracting(DrainedJob::id).containsExactly(welcome, reminder);
		assertThat(mail.sent()).containsExactly("ada@example.com", "ada@example.com");
	}

	@Test
	void aDrainThatWouldNeverEndStopsAtItsLimit() {
		queue.enqueue("echo", "again");

		assertThatIllegalStateException().isThrownBy(jobs::drain)
			.withMessage("drain() stopped after 1000 executions with jobs possibly still due ({echo=1000}): does a "
					+ "handler enqueue a job every time it runs?");
	}

	@Test
	@Transactional
	void inATransactionalTestTheUncommittedJobsAreFoundAndDrained() {
		queue.enqueue("send-mail", new SendMail("ada@example.com", "Welcome"));

		jobs.assertEnqueued(SendMail.class, m -> m.to().equals("ada@example.com"));
		assertThat(jobs.drain()).singleElement().satisfies(job -> assertThat(job.succeeded()).isTrue());
		assertThat(mail.sent()).containsExactly("ada@example.com");
	}

	@Test
	void oneJobRunsInlineOnItsPayloadBoundFromJsonAndReturnsTheHandlersResult() throws Exception {
		assertThat(jobs.perform("send-mail", Map.of("to", "ada@example.com", "subject", "Hi")))
			.isEqualTo("sent to ada@example.com");
		assertThat(jobs.perform(new Newsletter("News", List.of("alan@example.com")))).isEqualTo(1);
		assertThat(jobs.enqueued(SendMail.class)).extracting(SendMail::to).containsExactly("alan@example.com");
		assertThatThrownBy(() -> jobs.perform("send-mail", Map.of("to", List.of("not", "a", "string"))))
			.hasMessageContaining("does not fit " + SendMail.class.getName());
		assertThatThrownBy(() -> jobs.perform(new SendMail(MailJobs.BOUNCING, "Hi")))
			.isInstanceOf(IllegalStateException.class).hasMessage("mailbox bounce@example.com bounced");
	}

	private static DrainedJob single(List<DrainedJob> ran) {
		assertThat(ran).hasSize(1);
		return ran.get(0);
	}
}
