package dev.jobqueue.test.app;

import java.io.IOException;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.jobqueue.JobQueue;
import dev.jobqueue.test.JobQueueTester;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The listener registered in spring.factories marks where each test begins, with nothing in the test
 * asking for it: the second test does not see the job the first one committed, though it is still there.
 */
@SpringBootTest(properties = "jobqueue.worker.enabled=false")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EachTestBeginsAfreshTests {

	@Autowired
	private JobQueueTester jobs;

	@Autowired
	private JobQueue queue;

	@Autowired
	private JdbcClient jdbc;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) throws IOException {
		String url = "jdbc:sqlite:" + TestDatabases.newSqliteFile();
		properties.add("spring.datasource.url", () -> url);
	}

	@Test
	@Order(1)
	void aTestEnqueuesAndCommits() {
		queue.enqueue("send-mail", new SendMail("ada@example.com", "Welcome"));

		jobs.assertEnqueued("send-mail");
	}

	@Test
	@Order(2)
	void theNextTestDoesNotSeeThatJob() {
		assertThat(jdbc.sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isEqualTo(1);

		jobs.assertNotEnqueued("send-mail");
		assertThat(jobs.enqueued()).isEmpty();
	}
}
