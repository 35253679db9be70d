package dev.jobqueue.autoconfigure.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import dev.jobqueue.Job;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;

/**
 * What an application gets from the starter, on a real database: enqueue joins the application's
 * transaction, jobs run with their payload intact, transactional handlers commit with their job, and the
 * metrics move. One subclass per database.
 */
@SpringBootTest(classes = QueueTestApplication.class, properties = { "jobqueue.poll-interval=100ms",
		"jobqueue.retry.initial-backoff=10ms", "jobqueue.retry.max-backoff=50ms", "jobqueue.shutdown-timeout=5s" })
@DirtiesContext
public abstract class AbstractJobQueueApplicationTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@Autowired
	private SignupService signups;

	@Autowired
	private TestJobHandlers handlers;

	@Autowired
	private JobQueue jobs;

	@Autowired
	private JdbcClient jdbc;

	@Autowired
	private MeterRegistry meters;

	private static Welcome welcome(String email) {
		return new Welcome(email, "Zoë Ångström", List.of("queues", "transactions"),
				new Welcome.Address("Kraków", "PL"), Instant.parse("2025-01-02T03:04:05.678Z"));
	}

	@Test
	void aTransactionThatRollsBackLeavesNoJob() {
		long jobsBefore = count("jobqueue_job");

		assertThatThrownBy(() -> signups.signUpThenFail(welcome("rolled-back@example.com")))
			.hasMessageContaining("payment declined");

		assertThat(count("jobqueue_job")).isEqualTo(jobsBefore);
		assertThat(jdbc.sql("SELECT count(*) FROM app_signup WHERE email = 'rolled-back@example.com'")
			.query(Long.class)
			.single()).isZero();
	}

	@Test
	void aCommittedJobRunsWithItsPayloadIntactAndTheCompletionIsCounted() {
		double completedBefore = completed("welcome", "succeeded");
		Welcome sent = welcome("committed@example.com");

		long id = signups.signUp(sent);

		await().atMost(WAIT).until(() -> jobs.find(id).map(Job::state).orElseThrow() == JobState.succeeded);
		assertThat(handlers.welcomed).contains(sent);
		assertThat(jobs.find(id).orElseThrow().result()).isEqualTo("\"welcomed committed@example.com\"");
		assertThat(completed("welcome", "succeeded")).isEqualTo(completedBefore + 1);
	}

	@Test
	void aTransactionalHandlersWritesCommitOnlyWithItsJob() {
		long id = signups.audit("paid invoice 42");

		await().atMost(WAIT).until(() -> jobs.find(id).map(Job::state).orElseThrow() == JobState.succeeded);
		assertThat(jobs.find(id).orElseThrow().attempt()).isEqualTo(2);
		assertThat(handlers.auditRanInTransaction).containsOnly(true);
		assertThat(jdbc.sql("SELECT count(*) FROM app_audit WHERE job_id = :id").param("id", id).query(Long.class)
			.single()).isOne();
		assertThat(completed("audit", "retried")).isGreaterThanOrEqualTo(1);
	}

	private long count(String table) {
		return jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single();
	}

	private double completed(String kind, String outcome) {
		Counter counter = meters.find("jobqueue.jobs.completed").tags("kind", kind, "outcome", outcome).counter();
		return counter == null ? 0 : counter.count();
	}
}
