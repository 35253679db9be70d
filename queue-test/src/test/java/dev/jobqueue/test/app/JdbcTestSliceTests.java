package dev.jobqueue.test.app;

import java.io.IOException;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.jobqueue.JobQueue;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.test.AutoConfigureJobQueue;
import dev.jobqueue.test.DrainedJob;
import dev.jobqueue.test.JobQueueTester;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @JdbcTest} slice on SQLite: {@link AutoConfigureJobQueue} brings the queue and the tester, with
 * the workers off; the slice's own transaction holds the enqueue, the assertion and the drain.
 */
@JdbcTest
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@AutoConfigureJobQueue
@Import(MailJobs.class)
class JdbcTestSliceTests {

	@Autowired
	private JobQueueTester jobs;

	@Autowired
	private JobQueue queue;

	@Autowired
	private MailJobs mail;

	@Autowired
	private ApplicationContext context;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) throws IOException {
		String url = "jdbc:sqlite:" + TestDatabases.newSqliteFile();
		properties.add("spring.datasource.url", () -> url);
	}

	@Test
	void theSliceHasTheQueueAndTheTesterAndNoWorkers() {
		assertThat(context.getBeanProvider(JobRuntime.class).getIfAvailable()).isNull();
		assertThat(context.getBeanNamesForType(JobQueueTester.class)).hasSize(1);
	}

	@Test
	void aJobEnqueuedInTheSlicesTransactionIsAssertedAndDrained() {
		queue.enqueue("send-mail", new SendMail("ada@example.com", "Welcome"));

		jobs.assertEnqueued(SendMail.class, m -> m.to().equals("ada@example.com"));
		assertThat(jobs.drain()).singleElement().matches(DrainedJob::succeeded);
		assertThat(mail.sent()).contains("ada@example.com");
	}
}
