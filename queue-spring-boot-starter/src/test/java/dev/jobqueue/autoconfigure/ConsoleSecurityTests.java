package dev.jobqueue.autoconfigure;

import static dev.jobqueue.autoconfigure.ConsoleApplications.base;
import static dev.jobqueue.autoconfigure.ConsoleApplications.killThreeJobs;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;

/**
 * The console and the Actuator behind Spring Security, configured as docs/operations/console.md says: an anonymous
 * request is refused, an operator's forms carry the CSRF token, and a POST without it changes nothing.
 */
class ConsoleSecurityTests {

	private static final String OPERATOR = "Basic "
			+ Base64.getEncoder().encodeToString("ops:night-shift".getBytes(StandardCharsets.UTF_8));

	private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

	/** Keeps the session cookie, whose session holds the CSRF token. */
	private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

	@Test
	void anAnonymousRequestIsRefusedAndAnOperatorsPostNeedsTheCsrfToken() throws Exception {
		try (ConfigurableApplicationContext app = ConsoleApplications.start(ConsoleApplications.Secured.class,
				"console_secured", "jobqueue.console.writes-enabled=true")) {
			JobQueue queue = app.getBean(JobQueue.class);
			long id = killThreeJobs(queue).get(0);
			URI retry = URI.create(base(app) + "/jobs/" + id + "/retry");

			assertThat(send(get(base(app) + "/")).statusCode()).isEqualTo(401);
			// Spring Security's CSRF filter comes before its authorization: a POST without the token stops there.
			assertThat(send(post(retry, "")).statusCode()).isEqualTo(403);
			HttpResponse<String> page = send(get(base(app) + "/jobs/" + id).header("Authorization", OPERATOR));
			assertThat(page.statusCode()).isEqualTo(200);
			Matcher token = CSRF.matcher(page.body());
			assertThat(token.find()).as("the retry form carries the CSRF token").isTrue();

			assertThat(send(post(retry, "").header("Authorization", OPERATOR)).statusCode()).isEqualTo(403);
			assertThat(queue.find(id).orElseThrow().state()).isEqualTo(JobState.dead);
			HttpResponse<String> retried = send(
					post(retry, "_csrf=" + token.group(1)).header("Authorization", OPERATOR));
			assertThat(retried.statusCode()).isEqualTo(302);
			assertThat(queue.find(id).orElseThrow().state()).isEqualTo(JobState.ready);
		}
	}

	@Test
	void theDocumentedSetupRefusesEveryAnonymousWriteAndReadOfTheActuatorAndLeavesHealthOpen() throws Exception {
		try (ConfigurableApplicationContext app = ConsoleApplications.start(ConsoleApplications.Secured.class,
				"console_actuator", "management.endpoint.jobqueue.access=unrestricted",
				"management.endpoints.web.exposure.include=jobqueue,loggers,health")) {
			JobQueue queue = app.getBean(JobQueue.class);
			long id = killThreeJobs(queue).get(0);
			String actuator = "http://localhost:" + app.getEnvironment().getProperty("local.server.port")
					+ "/actuator";

			assertThat(send(json(actuator + "/jobqueue/" + id, "{\"action\":\"retry\"}")).statusCode())
				.isIn(401, 403);
			assertThat(send(json(actuator + "/jobqueue/queue/default", "{\"action\":\"resume\"}")).statusCode())
				.isIn(401, 403);
			assertThat(send(get(actuator + "/jobqueue/" + id + "?include=payload")).statusCode()).isEqualTo(401);
			assertThat(send(json(actuator + "/loggers/dev.jobqueue", "{\"configuredLevel\":\"DEBUG\"}"))
				.statusCode()).isIn(401, 403);
			assertThat(queue.find(id).orElseThrow().state()).isEqualTo(JobState.dead);
			assertThat(queue.pausedQueues()).containsKey("default");
			assertThat(send(get(actuator + "/health")).statusCode()).isEqualTo(200);
			assertThat(send(get(actuator + "/jobqueue/" + id).header("Authorization", OPERATOR)).statusCode())
				.isEqualTo(200);
		}
	}

	private static HttpRequest.Builder json(String uri, String body) {
		return HttpRequest.newBuilder(URI.create(uri))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body));
	}

	private static HttpRequest.Builder get(String uri) {
		return HttpRequest.newBuilder(URI.create(uri)).GET();
	}

	private static HttpRequest.Builder post(URI uri, String form) {
		return HttpRequest.newBuilder(uri)
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers.ofString(form));
	}

	private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
		return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}
}
