package dev.jobqueue.autoconfigure;

import static dev.jobqueue.autoconfigure.ConsoleApplications.base;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import dev.jobqueue.JobQueue;

/**
 * On PostgreSQL the overview shows the job table's health, and a transaction that holds back the xmin horizon past
 * {@code jobqueue.console.xmin-held-warning} gets a warning that says how to find and end it.
 */
class ConsoleTableHealthTests {

	@Test
	void aTransactionHoldingTheXminHorizonPastTheWarningIsShownWithWhatToDo() throws Exception {
		try (ConfigurableApplicationContext app = ConsoleApplications.start(ConsoleApplications.Plain.class,
				"console_table_health", "jobqueue.worker.enabled=false", "jobqueue.console.xmin-held-warning=500ms")) {
			assertThat(overview(app)).contains("<h2>Table health</h2>").doesNotContain("id=\"xmin-warning\"");

			try (Connection reader = app.getBean(DataSource.class).getConnection()) {
				reader.setAutoCommit(false);
				reader.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
				try (Statement statement = reader.createStatement()) {
					// The first read takes the snapshot; the transaction holds the horizon from then on.
					statement.execute("SELECT count(*) FROM jobqueue_job");
				}
				long waiting = app.getBean(JobQueue.class).enqueue("charge-card", new ConsoleApplications.Charge("4111"));
				assertThat(overview(app)).as("the oldest ready job's wait links to its page and explanation")
					.contains("id=\"oldest-default\"><a href=\"/jobqueue/jobs/" + waiting + "\">");

				await().atMost(Duration.ofSeconds(20)).until(() -> overview(app).contains("id=\"xmin-warning\""));
				assertThat(overview(app)).contains("over jobqueue.console.xmin-held-warning", "pg_stat_activity",
						"pg_terminate_backend");
				reader.rollback();
			}
		}
	}

	private static String overview(ConfigurableApplicationContext app) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(base(app) + "/")).build(), HttpResponse.BodyHandlers.ofString())
			.body();
	}
}
