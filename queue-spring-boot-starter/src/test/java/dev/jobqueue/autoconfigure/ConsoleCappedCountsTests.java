package dev.jobqueue.autoconfigure;

import static dev.jobqueue.autoconfigure.ConsoleApplications.base;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobQueue;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.store.JobCounts;

/**
 * Finished jobs are counted up to {@link JobCounts#FINISHED_CAP} per queue and state: past it, the console and the
 * endpoint say "at least", so that 10,000 of 10,001 succeeded jobs never reads as an exact count.
 */
class ConsoleCappedCountsTests {

	@Test
	void aCountAtTheCapReadsAsAtLeastInTheConsoleAndTheEndpoint() throws Exception {
		try (ConfigurableApplicationContext app = ConsoleApplications.start(ConsoleApplications.Plain.class,
				"console_capped", "jobqueue.worker.enabled=false",
				"management.endpoints.web.exposure.include=jobqueue")) {
			JobQueue queue = app.getBean(JobQueue.class);
			for (int from = 0; from <= JobCounts.FINISHED_CAP; from += 1000) {
				queue.enqueueAll(IntStream.range(from, Math.min(from + 1000, JobCounts.FINISHED_CAP + 1))
					.mapToObj(i -> new NewJobRequest("charge-card", new ConsoleApplications.Charge("4111")))
					.toList());
			}
			JdbcClient.create(app.getBean(DataSource.class))
				.sql("UPDATE jobqueue_job SET state = 'succeeded', started_at = now(), finished_at = now()")
				.update();

			String overview = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create(base(app) + "/")).build(), HttpResponse.BodyHandlers.ofString())
				.body();

			assertThat(overview).contains("≥ 10,000").contains("id=\"total-succeeded\">≥ 10,000<")
				.contains("there are at least that many");
			assertThat(app.getBean(JobQueueEndpoint.class).overview().atLeast())
				.containsEntry("default", List.of(JobState.succeeded));
		}
	}
}
