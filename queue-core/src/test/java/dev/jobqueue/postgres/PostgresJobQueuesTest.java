package dev.jobqueue.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.contract.JobQueuesContractTest;
import dev.jobqueue.core.JobQueues;
import dev.jobqueue.support.PostgresTestDatabase;
import dev.jobqueue.support.TestDatabase;

import static dev.jobqueue.support.ReadyNotifications.listen;
import static dev.jobqueue.support.ReadyNotifications.receive;
import static org.assertj.core.api.Assertions.assertThat;

class PostgresJobQueuesTest extends JobQueuesContractTest {

	private static TestDatabase database;

	@Override
	protected TestDatabase database() {
		if (database == null) {
			database = new PostgresTestDatabase();
		}
		return database;
	}

	@AfterAll
	static void closeDatabase() {
		if (database != null) {
			database.close();
			database = null;
		}
	}

	/** What PgBouncer's transaction pooling needs of the core (README, "Behind PgBouncer"). */
	@Test
	void queuesBuiltNotToNotifySendNoNotificationAndListenOnNoConnection() throws SQLException {
		try (Connection testListener = DriverManager.getConnection(database().jdbcUrl());
				JobQueues queues = JobQueues.builder(database().dataSource())
					.handler("greet", Greeting.class, (greeting, context) -> null)
					.notify(false)
					.build()) {
			listen(testListener);
			queues.start();
			JobQueue queue = queues.jobQueue();
			long id = queue.enqueue("greet", new Greeting("Ada", 1));

			assertThat(queue.await(id, Duration.ofSeconds(20)).state()).isEqualTo(JobState.succeeded);
			assertThat(receive(testListener)).isEmpty();
			assertThat(JdbcClient.create(database().dataSource()).sql("""
					SELECT count(*) FROM pg_stat_activity
					WHERE datname = current_database() AND query LIKE 'LISTEN jobqueue%' AND pid <> :testListener""")
				.param("testListener", testListener.unwrap(PGConnection.class).getBackendPID())
				.query(Long.class)
				.single()).as("sessions listening for the queue").isZero();
		}
	}
}
