package dev.jobqueue.postgres;

import static dev.jobqueue.support.ReadyNotifications.listen;
import static dev.jobqueue.support.ReadyNotifications.receive;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.support.PostgresQueueFixture;
import dev.jobqueue.support.QueueFixture;

/**
 * PostgreSQL's {@code now()} is the start of the transaction. A job enqueued late in a long transaction
 * takes its times from its own statement instead: it is not created in the past, not already overdue when
 * it commits, and whether it is due now, which decides the notification, is the database's answer at
 * that statement. The transaction sleeps on the server ({@code pg_sleep}), as a long one would work.
 */
class PostgresEnqueueTimesTest {

	@RegisterExtension
	static final PostgresQueueFixture postgres = new PostgresQueueFixture(4);

	private static QueueFixture fixture() {
		return postgres.fixture();
	}

	@Test
	void jobsEnqueuedASecondIntoATransactionAreCreatedAndDueAtTheirStatementsTimeNotTheTransactionsStart() {
		List<Long> ids = new ArrayList<>();
		Instant start = fixture().transactions().execute(status -> {
			Instant transactionStart = transactionStartAfterASecondOfWork();
			ids.add(fixture().queue().enqueue("greet", new Greeting("single", 1)));
			ids.add(fixture().queue().enqueue("greet", new Greeting("keyed", 2), EnqueueOptions.defaults().uniqueKey("k-1")));
			ids.addAll(fixture().queue().enqueueAll(List.of(new NewJobRequest("greet", new Greeting("copied", 3)),
					new NewJobRequest("greet", new Greeting("batch keyed", 4), EnqueueOptions.defaults().uniqueKey("k-2")))));
			return transactionStart;
		});

		for (long id : ids) {
			Job job = fixture().job(id);
			assertThat(job.createdAt()).as("created_at of job %d", id).isAfterOrEqualTo(start.plusSeconds(1));
			assertThat(job.runAt()).as("run_at of job %d", id).isAfterOrEqualTo(start.plusSeconds(1));
		}
	}

	@Test
	void aJobDueByItsStatementsTimeIsNotifiedThoughItWasNotDueWhenTheTransactionStarted() throws SQLException {
		try (Connection listening = DriverManager.getConnection(postgres.database().jdbcUrl())) {
			listen(listening);
			fixture().transactions().executeWithoutResult(status -> {
				Instant runAt = transactionStartAfterASecondOfWork().plusMillis(500);
				fixture().queue().enqueue("greet", new Greeting("single", 1), EnqueueOptions.defaults().queue("single").runAt(runAt));
			});

			assertThat(receive(listening)).containsExactly("single");
		}
	}

	@Test
	void aBatchNotifiesTheQueuesWithAJobDueByTheDatabasesClockAndNoOther() throws SQLException {
		try (Connection listening = DriverManager.getConnection(postgres.database().jdbcUrl())) {
			listen(listening);
			fixture().transactions().executeWithoutResult(status -> {
				Instant start = transactionStartAfterASecondOfWork();
				fixture().queue().enqueueAll(List.of(
						new NewJobRequest("greet", new Greeting("a", 1), EnqueueOptions.defaults().queue("due").runAt(start.plusMillis(500))),
						new NewJobRequest("greet", new Greeting("b", 2),
								EnqueueOptions.defaults().queue("keyed").runAt(start.plusMillis(500)).uniqueKey("k-3")),
						new NewJobRequest("greet", new Greeting("c", 3), EnqueueOptions.defaults().queue("later").runAt(start.plusSeconds(3600))),
						new NewJobRequest("greet", new Greeting("d", 4), EnqueueOptions.defaults().queue("delayed").delay(Duration.ofHours(1)))));
			});

			assertThat(receive(listening)).containsExactlyInAnyOrder("due", "keyed");
		}
	}

	/** The transaction's now(), read after the transaction has spent a second on the server. */
	private Instant transactionStartAfterASecondOfWork() {
		fixture().jdbc().sql("SELECT pg_sleep(1)").query((rs, n) -> 1).single();
		return fixture().jdbc().sql("SELECT now()").query(Timestamp.class).single().toInstant();
	}
}
