package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;

/**
 * What the {@code jobqueue} endpoint answers over HTTP, on a real server: exposing it exposes its reads,
 * a job without its payload unless asked for; its writes (retry, cancel, pause, resume) answer only when its
 * access is raised to unrestricted.
 */
class JobQueueEndpointAccessTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void exposingTheEndpointExposesItsReadsButNotItsWrites() throws Exception {
		try (ConfigurableApplicationContext context = start("endpoint_read_only")) {
			long id = context.getBean(JobQueue.class).enqueue("send-mail", Map.of("to", "ada@example.com"));

			assertThat(get(context, "/actuator/jobqueue").statusCode()).isEqualTo(200);
			HttpResponse<String> job = get(context, "/actuator/jobqueue/" + id);
			assertThat(job.statusCode()).isEqualTo(200);
			assertThat(job.body()).contains("\"kind\":\"send-mail\"", "\"payloadVersion\":1")
				.doesNotContain("\"payload\"");
			assertThat(get(context, "/actuator/jobqueue/" + id + "?include=payload").body()).contains("\"payload\"");
			assertThat(post(context, "/actuator/jobqueue/" + id, "{\"action\":\"cancel\"}").statusCode())
				.isEqualTo(405);
			assertThat(get(context, "/actuator/jobqueue/queue/default").body()).contains("\"paused\":false");
			assertThat(post(context, "/actuator/jobqueue/queue/default", "{\"action\":\"pause\"}").statusCode())
				.isEqualTo(405);
			assertThat(context.getBean(JobQueue.class).find(id).orElseThrow().state()).isEqualTo(JobState.ready);
			assertThat(context.getBean(JobQueue.class).pausedQueues()).isEmpty();
		}
	}

	@Test
	void theWritesAnswerWhenTheEndpointsAccessIsUnrestricted() throws Exception {
		try (ConfigurableApplicationContext context = start("endpoint_unrestricted",
				"management.endpoint.jobqueue.access=unrestricted")) {
			long id = context.getBean(JobQueue.class).enqueue("send-mail", Map.of());

			HttpResponse<String> answer = post(context, "/actuator/jobqueue/" + id, "{\"action\":\"cancel\"}");

			assertThat(answer.statusCode()).isEqualTo(200);
			assertThat(answer.body()).contains("\"changed\":true");
			assertThat(context.getBean(JobQueue.class).find(id).orElseThrow().state())
				.isEqualTo(JobState.cancelled);
		}
	}

	@Test
	void aQueueIsPausedAndResumedOverHttpAndTheOverviewShowsIt() throws Exception {
		try (ConfigurableApplicationContext context = start("endpoint_pause",
				"management.endpoint.jobqueue.access=unrestricted")) {
			HttpResponse<String> paused = post(context, "/actuator/jobqueue/queue/default", "{\"action\":\"pause\"}");

			assertThat(paused.statusCode()).isEqualTo(200);
			assertThat(paused.body()).contains("\"changed\":true", "\"paused\":true");
			assertThat(get(context, "/actuator/jobqueue").body()).contains("\"pausedQueues\":{\"default\":");
			assertThat(post(context, "/actuator/jobqueue/queue/default", "{\"action\":\"resume\"}").body())
				.contains("\"changed\":true", "\"paused\":false");
			assertThat(post(context, "/actuator/jobqueue/queue/mial", "{\"action\":\"pause\"}").statusCode())
				.isEqualTo(400);
			assertThat(context.getBean(JobQueue.class).pausedQueues()).isEmpty();
		}
	}

	@Test
	void anUnknownActionIsABadRequestThatNamesItAndTheAcceptedOnes() throws Exception {
		try (ConfigurableApplicationContext context = start("endpoint_bad_action",
				"management.endpoint.jobqueue.access=unrestricted")) {
			long id = context.getBean(JobQueue.class).enqueue("send-mail", Map.of());

			HttpResponse<String> answer = post(context, "/actuator/jobqueue/" + id, "{\"action\":\"delete\"}");

			assertThat(answer.statusCode()).isEqualTo(400);
			assertThat(answer.body()).contains("Unknown action 'delete'", "'retry'", "'cancel'");
			assertThat(context.getBean(JobQueue.class).find(id).orElseThrow().state()).isEqualTo(JobState.ready);
		}
	}

	@Test
	void cancellingOrRetryingAMissingJobIsNotFoundLikeReadingIt() throws Exception {
		try (ConfigurableApplicationContext context = start("endpoint_missing",
				"management.endpoint.jobqueue.access=unrestricted")) {
			assertThat(get(context, "/actuator/jobqueue/999999").statusCode()).isEqualTo(404);
			assertThat(post(context, "/actuator/jobqueue/999999", "{\"action\":\"cancel\"}").statusCode())
				.isEqualTo(404);
			assertThat(post(context, "/actuator/jobqueue/999999", "{\"action\":\"retry\"}").statusCode())
				.isEqualTo(404);
		}
	}

	@Test
	void theJobViewShowsPayloadAndResultAsJsonNotAsStrings() throws Exception {
		try (ConfigurableApplicationContext context = start("endpoint_json")) {
			long id = context.getBean(JobQueue.class)
				.enqueue("send-mail", Map.of("to", "ada@example.com", "tags", List.of("a", "b"), "amount", 12.50));

			String body = get(context, "/actuator/jobqueue/" + id + "?include=payload,result").body();

			assertThat(body).contains("\"payload\":{").contains("\"to\":\"ada@example.com\"")
				.contains("\"tags\":[\"a\",\"b\"]")
				.contains("\"amount\":12.5")
				.contains("\"result\":null")
				.doesNotContain("\\\"");
		}
	}

	private static ConfigurableApplicationContext start(String schema, String... properties) {
		return new SpringApplicationBuilder(EndpointApplication.class).web(WebApplicationType.SERVLET)
			.properties("spring.datasource.url=" + PostgresSchemas.fresh(schema), "server.port=0",
					"jobqueue.worker.enabled=false", "management.endpoints.web.exposure.include=jobqueue")
			.properties(properties)
			.run();
	}

	private HttpResponse<String> get(ConfigurableApplicationContext context, String path)
			throws IOException, InterruptedException {
		return http.send(HttpRequest.newBuilder(uri(context, path)).GET().build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> post(ConfigurableApplicationContext context, String path, String json)
			throws IOException, InterruptedException {
		return http.send(HttpRequest.newBuilder(uri(context, path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static URI uri(ConfigurableApplicationContext context, String path) {
		return URI.create("http://localhost:" + context.getEnvironment().getProperty("local.server.port") + path);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class EndpointApplication {

	}
}
