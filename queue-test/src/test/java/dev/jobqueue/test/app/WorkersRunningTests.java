package dev.jobqueue.test.app;

import java.io.IOException;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.jobqueue.JobQueue;
import dev.jobqueue.test.JobQueueTester;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** With the background workers on, the assertions work and a drain is refused: the workers would race it. */
@SpringBootTest
class WorkersRunningTests {

	@Autowired
	private JobQueueTester jobs;

	@Autowired
	private JobQueue queue;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) throws IOException {
		String url = "jdbc:sqlite:" + TestDatabases.newSqliteFile();
		properties.add("spring.datasource.url", () -> url);
	}

	@Test
	void aDrainIsRefusedSayingHowToSwitchTheWorkersOff() {
		queue.enqueue("send-mail", new SendMail("ada@example.com", "Welcome"));

		jobs.assertEnqueued("send-mail");
		assertThatIllegalStateException().isThrownBy(jobs::drain)
			.withMessageContaining(
					"set jobqueue.worker.enabled=false for this test, or annotate it @AutoConfigureJobQueue");
	}
}
