package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.Map;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;

class JobQueueEndpointTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JobQueueAutoConfiguration.class,
				JobQueueEndpointAutoConfiguration.class))
		.withPropertyValues("jobqueue.worker.enabled=false");

	@Test
	void theEndpointShowsEveryQueueByStateAndRetriesAndCancelsJobsInTheDatabase() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_endpoint"),
				"management.endpoints.web.exposure.include=jobqueue")
			.run(context -> {
				JobQueue queue = context.getBean(JobQueue.class);
				JobStore store = context.getBean(JobStore.class);
				JobQueueEndpoint endpoint = context.getBean(JobQueueEndpoint.class);
				long dead = killedJob(queue, store);
				long toCancel = queue.enqueue("send-mail", Map.of("to", "ada@example.com"));
				queue.enqueue("report", Map.of(), EnqueueOptions.defaults().queue("reports"));

				JobQueueEndpoint.Overview overview = endpoint.overview();
				assertThat(overview.database()).isEqualTo("postgresql");
				assertThat(overview.worker()).isNull();
				assertThat(overview.maintainer()).isFalse();
				assertThat(overview.queues()).containsOnlyKeys("default", "reports");
				assertThat(overview.queues().get("default")).containsEntry(JobState.ready, 1L)
					.containsEntry(JobState.dead, 1L)
					.containsEntry(JobState.running, 0L);
				assertThat(endpoint.job(dead, null)).containsEntry("lastError", "boom");
				assertThat(endpoint.job(dead, null).get("errors")).asInstanceOf(InstanceOfAssertFactories.list(Job.AttemptError.class))
					.singleElement()
					.satisfies(entry -> {
						assertThat(entry.attempt()).isEqualTo(1);
						assertThat(entry.worker()).isEqualTo("endpoint-test");
						assertThat(entry.message()).isEqualTo("boom");
					});
				assertThat(endpoint.job(999_999, null)).isNull();

				assertThat(endpoint.act(toCancel, "cancel").getBody()).containsEntry("changed", true)
					.containsEntry("state", JobState.cancelled);
				assertThat(endpoint.act(toCancel, "cancel").getBody()).containsEntry("changed", false);
				assertThat(endpoint.act(dead, "retry").getBody()).containsEntry("changed", true)
					.containsEntry("state", JobState.ready);
				assertThat(endpoint.act(999_999, "cancel").getStatus()).isEqualTo(WebEndpointResponse.STATUS_NOT_FOUND);
			});
	}

	@Test
	void aJobIsReadWithoutItsPayloadAndResultUnlessTheyAreAskedFor() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_endpoint_data"),
				"management.endpoints.web.exposure.include=jobqueue")
			.run(context -> {
				JobQueueEndpoint endpoint = context.getBean(JobQueueEndpoint.class);
				long id = context.getBean(JobQueue.class).enqueue("send-mail", Map.of("to", "ada@example.com"));

				assertThat(endpoint.job(id, null)).containsEntry("kind", "send-mail")
					.containsEntry("state", JobState.ready)
					.doesNotContainKeys("payload", "result");
				assertThat(endpoint.job(id, "payload")).containsKey("payload").doesNotContainKey("result");
				assertThat(endpoint.job(id, "payload,result")).containsKeys("payload", "result");
				assertThat(endpoint.job(id, "payload").get("payload")).isEqualTo(Map.of("to", "ada@example.com"));
				assertThatExceptionOfType(InvalidEndpointRequestException.class)
					.isThrownBy(() -> endpoint.job(id, "payload,secrets"))
					.withMessageContaining("'secrets'");
			});
	}

	@Test
	void onAWorkerNodeTheOverviewNamesItsWorkerAndWhetherItMaintains() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_endpoint_maintainer"),
				"management.endpoints.web.exposure.include=jobqueue", "jobqueue.worker.enabled=true")
			.run(context -> {
				JobQueueEndpoint.Overview overview = context.getBean(JobQueueEndpoint.class).overview();

				assertThat(overview.worker()).isEqualTo(context.getBean(JobRuntime.class).owner());
				assertThat(overview.maintainer()).as("the only node, so the holder of the maintenance lease").isTrue();
			});
	}

	@Test
	void theOverviewIsCountedAgainOnlyOnceItsCacheHasExpired() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_endpoint_cache"),
				"management.endpoints.web.exposure.include=jobqueue")
			.run(context -> {
				JobQueue queue = context.getBean(JobQueue.class);
				MovableClock clock = new MovableClock();
				JobQueueEndpoint endpoint = new JobQueueEndpoint(context.getBean(JobStore.class), queue,
						context.getBeanProvider(JobRuntime.class), clock);
				queue.enqueue("send-mail", Map.of());
				assertThat(endpoint.overview().queues().get("default")).containsEntry(JobState.ready, 1L);

				queue.enqueue("send-mail", Map.of());
				clock.advance(JobQueueEndpoint.OVERVIEW_CACHE.minusMillis(1));
				assertThat(endpoint.overview().queues().get("default")).containsEntry(JobState.ready, 1L);

				clock.advance(Duration.ofMillis(1));
				assertThat(endpoint.overview().queues().get("default")).containsEntry(JobState.ready, 2L);
			});
	}

	@Test
	void retryingADeadJobWhoseUniqueKeyANewerJobHoldsIsAConflictNamingTheHolderNotAServerError() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_endpoint_conflict"),
				"management.endpoints.web.exposure.include=jobqueue")
			.run(context -> {
				JobQueue queue = context.getBean(JobQueue.class);
				long dead = killedJob(queue, context.getBean(JobStore.class), EnqueueOptions.defaults().uniqueKey("import-7"));
				long holder = queue.enqueue("import-file", Map.of(), EnqueueOptions.defaults().uniqueKey("import-7"));

				Map<String, Object> answer = context.getBean(JobQueueEndpoint.class).act(dead, "retry").getBody();

				assertThat(answer).containsEntry("changed", false)
					.containsEntry("state", JobState.dead)
					.containsEntry("conflict", "job " + dead + " stays dead: its unique key is held by job "
							+ holder + "; retry it once that job no longer holds it");
			});
	}

	@Test
	void anUnknownActionIsABadRequestAndChangesNothing() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_endpoint_bad"),
				"management.endpoints.web.exposure.include=jobqueue")
			.run(context -> {
				long id = context.getBean(JobQueue.class).enqueue("send-mail", Map.of());

				WebEndpointResponse<Map<String, Object>> answer = context.getBean(JobQueueEndpoint.class).act(id, "delete");

				assertThat(answer.getStatus()).isEqualTo(WebEndpointResponse.STATUS_BAD_REQUEST);
				assertThat(answer.getBody()).containsEntry("error",
						"Unknown action 'delete'; the actions are 'retry' (a dead job) and 'cancel' (a ready or running job)");
				assertThat(context.getBean(JobQueue.class).find(id).orElseThrow().state()).isEqualTo(JobState.ready);
			});
	}

	@Test
	void theEndpointPausesAndResumesQueuesAndKindsAndTheOverviewShowsThemPaused() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_endpoint_pause"),
				"management.endpoints.web.exposure.include=jobqueue")
			.run(context -> {
				JobQueueEndpoint endpoint = context.getBean(JobQueueEndpoint.class);

				assertThat(endpoint.control("queue", "default", "pause", null).getBody()).containsEntry("changed", true)
					.containsEntry("paused", true);
				assertThat(endpoint.control("kind", "send-mail", "pause", null).getBody()).containsEntry("changed", true);
				assertThat(endpoint.control("queue", "default", "pause", null).getBody()).containsEntry("changed", false);
				JobQueueEndpoint.Overview overview = endpoint.overview();
				assertThat(overview.pausedQueues()).containsOnlyKeys("default");
				assertThat(overview.pausedKinds()).containsOnlyKeys("send-mail");
				assertThat(endpoint.paused("queue", "default").getBody()).containsEntry("paused", true)
					.containsEntry("pausedAt", overview.pausedQueues().get("default"));

				assertThat(endpoint.control("queue", "default", "resume", null).getBody()).containsEntry("changed", true)
					.containsEntry("paused", false);
				assertThat(endpoint.control("kind", "send-mail", "resume", null).getBody()).containsEntry("changed", true);
				assertThat(endpoint.overview().pausedQueues()).isEmpty();
				assertThat(endpoint.overview().pausedKinds()).isEmpty();
			});
	}

	@Test
	void aPauseTheQueueRefusesIsABadRequestThatSaysWhyAndWritesNothing() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_endpoint_pause_bad"),
				"management.endpoints.web.exposure.include=jobqueue")
			.run(context -> {
				JobQueueEndpoint endpoint = context.getBean(JobQueueEndpoint.class);

				assertBadRequest(endpoint.control("queues", "default", "pause", null), "Unknown scope 'queues'");
				assertBadRequest(endpoint.control("queue", "default", "stop", null), "Unknown action 'stop'");
				assertBadRequest(endpoint.control("queue", "mail queue", "pause", null), "queue must match");
				assertBadRequest(endpoint.control("queue", "mial", "pause", null), "queue 'mial' is unknown");
				assertBadRequest(endpoint.paused("queues", "default"), "Unknown scope 'queues'");
				assertThat(context.getBean(JobQueue.class).pausedQueues()).isEmpty();
				assertThat(context.getBean(JobQueue.class).pausedKinds()).isEmpty();
			});
	}

	@Test
	void theEndpointResizesAQueueOnThisNodeAndRefusesASizeOrQueueItCannotTake() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_endpoint_resize"),
				"management.endpoints.web.exposure.include=jobqueue", "jobqueue.worker.enabled=true",
				"jobqueue.queues.mail.concurrency=2")
			.run(context -> {
				JobQueueEndpoint endpoint = context.getBean(JobQueueEndpoint.class);
				assertThat(endpoint.overview().concurrency()).containsEntry("mail", 2);

				assertThat(endpoint.control("queue", "mail", "resize", 5).getBody()).containsEntry("concurrency", 5);

				assertThat(context.getBean(JobQueue.class).queues().concurrency()).containsEntry("mail", 5);
				assertThat(endpoint.overview().concurrency()).containsEntry("mail", 5);
				assertBadRequest(endpoint.control("queue", "mail", "resize", null), "A resize needs 'concurrency'");
				assertBadRequest(endpoint.control("queue", "mail", "resize", 0), "must be at least 1, was 0");
				assertBadRequest(endpoint.control("queue", "mial", "resize", 3), "does not work queue 'mial'");
				assertBadRequest(endpoint.control("kind", "send-mail", "resize", 3), "Unknown action 'resize'");
				assertThat(endpoint.overview().concurrency()).containsEntry("mail", 5);
			});
	}

	@Test
	void aResizeOnANodeWithoutWorkersIsABadRequestThatSaysSo() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_endpoint_resize_none"),
				"management.endpoints.web.exposure.include=jobqueue")
			.run(context -> {
				JobQueueEndpoint endpoint = context.getBean(JobQueueEndpoint.class);

				assertBadRequest(endpoint.control("queue", "default", "resize", 3), "this node runs no workers");
				assertThat(endpoint.overview().concurrency()).isEmpty();
			});
	}

	private static void assertBadRequest(WebEndpointResponse<Map<String, Object>> answer, String error) {
		assertThat(answer.getStatus()).isEqualTo(WebEndpointResponse.STATUS_BAD_REQUEST);
		assertThat(answer.getBody()).hasEntrySatisfying("error", text -> assertThat(text).asString().contains(error));
	}

	@Test
	void theEndpointIsOnlyThereWhenExposed() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.withPropertyValues("jobqueue.initialize-schema=never")
			.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(JobQueueEndpoint.class));
	}

	@Test
	void withoutActuatorTheEndpointBacksOff() {
		runner.withUserConfiguration(StubStoreConfiguration.class)
			.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.withPropertyValues("jobqueue.initialize-schema=never", "management.endpoints.web.exposure.include=jobqueue")
			.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(JobQueueEndpoint.class));
	}

	private static long killedJob(JobQueue queue, JobStore store) {
		return killedJob(queue, store, EnqueueOptions.defaults());
	}

	private static long killedJob(JobQueue queue, JobStore store, EnqueueOptions options) {
		long id = queue.enqueue("import-file", Map.of(), options.maxAttempts(1));
		ClaimedJob claimed = store.claims().claim("default", Map.of("import-file", 1), 1, "endpoint-test", Duration.ofMinutes(1),
				false)
			.get(0);
		assertThat(claimed.id()).isEqualTo(id);
		assertThat(store.outcomes().fail(claimed.lease(), "boom")).isTrue();
		return id;
	}
}
