package dev.jobqueue.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.web.client.RestClient;

/** The sample as a newcomer runs it: register over HTTP, watch the jobs finish. One subclass per database. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.mail.failure-rate=0")
@DirtiesContext
abstract class AbstractSampleApplicationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@LocalServerPort
	private int port;

	@Autowired
	private JdbcClient jdbc;

	private RestClient http;

	@BeforeEach
	void client() {
		http = RestClient.builder().baseUrl("http://localhost:" + port).build();
	}

	@Test
	void aRegistrationSendsTheWelcomeEmailThenTheDelayedReport() {
		Registration registration = http.post().uri("/users").contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("email", "ada@example.com", "name", "Ada"))
			.retrieve()
			.body(Registration.class);

		await().atMost(WAIT).until(() -> "succeeded".equals(job(registration.welcomeEmailJob()).get("state")));
		await().atMost(WAIT).until(() -> "succeeded".equals(job(registration.signupReportJob()).get("state")));
		Map<String, Object> report = job(registration.signupReportJob());
		assertThat(report).containsEntry("queue", "reports").containsEntry("priority", 8);
		assertThat((String) report.get("result")).contains(registration.userId());
		await().atMost(WAIT).until(() -> "succeeded".equals(job(registration.signupSummaryJob()).get("state")));
		// PostgreSQL's jsonb spaces the result out.
		assertThat((String) job(registration.signupSummaryJob()).get("result"))
			.containsPattern("\"welcomeEmailSent\": ?true");
		assertThat(metric("jobqueue.jobs.completed")).isGreaterThanOrEqualTo(3.0);
	}

	@Test
	void aNewsletterGoesToEveryUserAsABatchWhoseReportRunsOnceAllCopiesAreSent() {
		http.post().uri("/users").contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("email", "grace@example.com", "name", "Grace"))
			.retrieve()
			.toBodilessEntity();

		Map<String, Object> sending = http.post().uri("/newsletters").contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("title", "December"))
			.retrieve()
			.body(new ParameterizedTypeReference<Map<String, Object>>() {
			});
		int copies = (Integer) sending.get("copies");
		long report = ((Number) sending.get("reportJob")).longValue();

		await().atMost(WAIT).until(() -> "succeeded".equals(job(report).get("state")));
		assertThat((String) job(report).get("result")).containsPattern("\"sent\": ?" + copies + ",");
		Map<String, Object> progress = http.get().uri("/newsletters/{id}", sending.get("batchId")).retrieve()
			.body(new ParameterizedTypeReference<>() {
			});
		assertThat(progress).containsEntry("total", copies).containsEntry("succeeded", copies)
			.containsEntry("unfinished", 0);
	}

	@Test
	void aReportRunNowAnswersWithItsResultOnceAWorkerRanIt() {
		long users = jdbc.sql("SELECT count(*) FROM app_user").query(Long.class).single();

		Map<String, Object> answer = http.post().uri("/reports/now")
			.retrieve()
			.body(new ParameterizedTypeReference<Map<String, Object>>() {
			});

		assertThat(answer).containsEntry("users", (int) users);
		assertThat(job(((Number) answer.get("jobId")).longValue())).containsEntry("state", "succeeded");
	}

	@Test
	void reportsAskedForWithinOneMinuteShareOneJob() {
		long first = reportNow();
		long second = reportNow();

		Object firstKey = job(first).get("uniqueKey");
		assertThat(firstKey).asString().startsWith("user-count@");
		// Two asks straddle a minute's end rarely; then they are two reports of two minutes.
		assertThat(second == first || !job(second).get("uniqueKey").equals(firstKey)).isTrue();
	}

	private long reportNow() {
		Map<String, Object> answer = http.post().uri("/reports/now")
			.retrieve()
			.body(new ParameterizedTypeReference<Map<String, Object>>() {
			});
		return ((Number) answer.get("jobId")).longValue();
	}

	@Test
	void aDuplicateRegistrationIsRefusedAndEnqueuesNothing() {
		http.post().uri("/users").contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("email", "alan@example.com", "name", "Alan"))
			.retrieve()
			.toBodilessEntity();
		long jobs = registrationJobs();

		HttpStatusCode status = http.post().uri("/users").contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("email", "alan@example.com", "name", "Alan again"))
			.exchange((request, response) -> response.getStatusCode());

		assertThat(status.value()).isEqualTo(409);
		assertThat(registrationJobs()).isEqualTo(jobs);
	}

	@Test
	void theRecurringReportIsListedByTheEndpointWithItsNextFireTimeOnTheMinute() {
		await().atMost(WAIT).until(() -> schedule("user-count-report").get("nextFireAt") != null);
		Map<String, Object> schedule = schedule("user-count-report");

		assertThat(schedule).containsEntry("timing", "cron 0 * * * * * UTC");
		assertThat(Instant.parse((String) schedule.get("nextFireAt")).getEpochSecond() % 60).isZero();
	}

	/** The jobs registrations enqueued, not counting the recurring report, which fires every minute. */
	private long registrationJobs() {
		return jdbc.sql("SELECT count(*) FROM jobqueue_job WHERE kind <> 'user-count-report'").query(Long.class).single();
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> schedule(String name) {
		Map<String, Object> overview = http.get().uri("/actuator/jobqueue").retrieve()
			.body(new ParameterizedTypeReference<>() {
			});
		return ((List<Map<String, Object>>) overview.get("schedules")).stream()
			.filter(schedule -> name.equals(schedule.get("name")))
			.findFirst()
			.orElse(Map.of());
	}

	private Map<String, Object> job(long id) {
		return http.get().uri("/jobs/{id}", id).retrieve().body(new ParameterizedTypeReference<>() {
		});
	}

	private double metric(String name) {
		Map<String, Object> metric = http.get().uri("/actuator/metrics/{name}", name).retrieve()
			.body(new ParameterizedTypeReference<>() {
			});
		@SuppressWarnings("unchecked")
		Map<String, Object> count = ((List<Map<String, Object>>) metric.get("measurements")).get(0);
		return ((Number) count.get("value")).doubleValue();
	}
}
