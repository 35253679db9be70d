package dev.jobqueue.autoconfigure;

import static dev.jobqueue.autoconfigure.ConsoleApplications.base;
import static dev.jobqueue.autoconfigure.ConsoleApplications.killThreeJobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;

/**
 * The console's writes without Spring Security: refused at startup unless the operator opts in by name, and then
 * taken only from the console's own pages, never from a form on another site.
 */
class ConsoleWriteGuardTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void writesWithoutSpringSecurityFailTheStartupNamingTheProperties() {
		assertThatThrownBy(() -> ConsoleApplications.start(ConsoleApplications.Plain.class, "console_unsecured",
				"jobqueue.console.writes-enabled=true").close())
			.hasStackTraceContaining("jobqueue.console.writes-enabled")
			.hasStackTraceContaining("jobqueue.console.allow-unsecured-writes=true");
	}

	@Test
	void aCrossSiteFormPostIsRefusedAndChangesNothingWhileTheConsolesOwnFormIsTaken() throws Exception {
		try (ConfigurableApplicationContext app = ConsoleApplications.start(ConsoleApplications.Plain.class,
				"console_origin", "jobqueue.console.writes-enabled=true",
				"jobqueue.console.allow-unsecured-writes=true")) {
			JobQueue queue = app.getBean(JobQueue.class);
			long id = killThreeJobs(queue).get(0);
			URI retry = URI.create(base(app) + "/jobs/" + id + "/retry");
			String origin = "http://localhost:" + app.getEnvironment().getProperty("local.server.port");

			assertThat(post(retry, "Origin", "https://attacker.example").statusCode()).isEqualTo(403);
			assertThat(post(retry, "Sec-Fetch-Site", "cross-site").statusCode()).isEqualTo(403);
			assertThat(post(retry, "Referer", "https://attacker.example/page").statusCode()).isEqualTo(403);
			assertThat(queue.find(id).orElseThrow().state()).isEqualTo(JobState.dead);

			assertThat(post(retry, "Origin", origin).statusCode()).isEqualTo(302);
			assertThat(queue.find(id).orElseThrow().state()).isEqualTo(JobState.ready);
		}
	}

	@Test
	void anUnknownJobIsNotFound() throws Exception {
		try (ConfigurableApplicationContext app = ConsoleApplications.start(ConsoleApplications.Plain.class,
				"console_missing")) {
			HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base(app) + "/jobs/987654321"))
				.build(), HttpResponse.BodyHandlers.ofString());

			assertThat(page.statusCode()).isEqualTo(404);
			assertThat(page.body()).contains("No job 987654321");
		}
	}

	private HttpResponse<String> post(URI uri, String header, String value) throws Exception {
		return http.send(HttpRequest.newBuilder(uri)
			.header("Content-Type", "application/x-www-form-urlencoded")
			.header(header, value)
			.POST(HttpRequest.BodyPublishers.ofString(""))
			.build(), HttpResponse.BodyHandlers.ofString());
	}
}
