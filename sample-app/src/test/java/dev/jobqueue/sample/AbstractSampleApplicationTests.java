package dev.jobqueue.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
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
		assertThat(metric("jobqueue.jobs.completed")).isGreaterThanOrEqualTo(2.0);
	}

	@Test
	void aDuplicateRegistrationIsRefusedAndEnqueuesNothing() {
		http.post().uri("/users").contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("email", "alan@example.com", "name", "Alan"))
			.retrieve()
			.toBodilessEntity();
		long jobs = jdbc.sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single();

		HttpStatusCode status = http.post().uri("/users").contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("email", "alan@example.com", "name", "Alan again"))
			.exchange((request, response) -> response.getStatusCode());

		assertThat(status.value()).isEqualTo(409);
		assertThat(jdbc.sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single()).isEqualTo(jobs);
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
