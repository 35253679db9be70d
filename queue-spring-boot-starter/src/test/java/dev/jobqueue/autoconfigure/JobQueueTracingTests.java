package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.MDC;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.jobqueue.JobQueue;
import dev.jobqueue.spring.JobHandler;

/**
 * A web request that enqueues a job yields one trace: the request's span, the enqueue's span as its child,
 * and the job's execution span as the enqueue's child, run later on a worker thread. The tracer is Brave, as
 * Spring Boot configures it, and its finished spans are collected in memory.
 */
class JobQueueTracingTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void aRequestThatEnqueuesAJobYieldsOneTraceOfRequestEnqueueAndExecution(@TempDir Path folder) throws Exception {
		try (ConfigurableApplicationContext context = start(folder)) {
			HttpResponse<String> response = signUp(context);
			FinishedSpans spans = context.getBean(FinishedSpans.class);

			await().atMost(Duration.ofSeconds(20)).until(() -> spans.named("execute welcome") != null
					&& spans.named("http post /signups") != null);

			MutableSpan request = spans.named("http post /signups");
			MutableSpan enqueue = spans.named("enqueue welcome");
			MutableSpan execution = spans.named("execute welcome");
			assertThat(List.of(enqueue.traceId(), execution.traceId())).containsOnly(request.traceId());
			assertThat(enqueue.parentId()).isEqualTo(request.id());
			assertThat(execution.parentId()).isEqualTo(enqueue.id());
			assertThat(enqueue.tags()).containsEntry("jobqueue.queue", "default")
				.containsEntry("jobqueue.kind", "welcome");
			assertThat(execution.tags()).containsEntry("jobqueue.kind", "welcome")
				.containsEntry("jobqueue.job.id", response.body())
				.containsEntry("jobqueue.job.attempt", "1");
			assertThat(context.getBean(Handlers.class).logged).containsEntry("jobqueue.job.id", response.body())
				.containsEntry("traceId", request.traceId());
		}
	}

	@Test
	void withTheQueuesObservationsDisabledNoSpanIsOpenedAndNoContextStored(@TempDir Path folder) throws Exception {
		try (ConfigurableApplicationContext context = start(folder, "management.observations.enable.jobqueue=false")) {
			HttpResponse<String> response = signUp(context);
			Handlers handlers = context.getBean(Handlers.class);

			await().atMost(Duration.ofSeconds(20)).until(() -> !handlers.logged.isEmpty());

			assertThat(handlers.logged).containsEntry("jobqueue.job.id", response.body());
			assertThat(context.getBean(FinishedSpans.class).spans).extracting(MutableSpan::name)
				.noneMatch(name -> name.startsWith("enqueue") || name.startsWith("execute"));
			assertThat(JdbcClient.create(context.getBean(DataSource.class))
				.sql("SELECT trace_context FROM jobqueue_job WHERE id = :id")
				.param("id", Long.parseLong(response.body()))
				// single() refuses a null value, the one this column holds for an untraced job.
				.query((rows, row) -> rows.getString("trace_context"))
				.list()
				.get(0)).isNull();
		}
	}

	private HttpResponse<String> signUp(ConfigurableApplicationContext context) throws Exception {
		HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://localhost:"
				+ context.getEnvironment().getProperty("local.server.port") + "/signups"))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response;
	}

	private static ConfigurableApplicationContext start(Path folder, String... properties) {
		return new SpringApplicationBuilder(TracedApplication.class).web(WebApplicationType.SERVLET)
			.properties("spring.datasource.url=jdbc:sqlite:" + folder.resolve("traced.db"), "server.port=0",
					"management.tracing.sampling.probability=1.0", "jobqueue.poll-interval=100ms")
			.properties(properties)
			.run();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TracedApplication {

		@Bean
		FinishedSpans finishedSpans() {
			return new FinishedSpans();
		}

		@Bean
		Handlers handlers() {
			return new Handlers();
		}

		@Bean
		Signups signups(JobQueue queue) {
			return new Signups(queue);
		}
	}

	@RestController
	static class Signups {

		private final JobQueue queue;

		Signups(JobQueue queue) {
			this.queue = queue;
		}

		@PostMapping("/signups")
		String signUp() {
			return Long.toString(queue.enqueue("welcome", Map.of("email", "ada@example.com")));
		}
	}

	static class Handlers {

		/** The MDC as the handler found it: what every line it logs carries. */
		final Map<String, String> logged = new ConcurrentHashMap<>();

		@JobHandler("welcome")
		public void welcome(Map<String, String> payload) {
			logged.putAll(MDC.getCopyOfContextMap());
		}
	}

	/** Brave's spans as they finish: the in-memory exporter. */
	static class FinishedSpans extends SpanHandler {

		final List<MutableSpan> spans = new CopyOnWriteArrayList<>();

		@Override
		public boolean end(TraceContext context, MutableSpan span, Cause cause) {
			spans.add(span);
			return true;
		}

		MutableSpan named(String name) {
			return spans.stream().filter(span -> name.equals(span.name())).findFirst().orElse(null);
		}
	}
}
