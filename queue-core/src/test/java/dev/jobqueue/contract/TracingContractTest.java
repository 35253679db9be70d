package dev.jobqueue.contract;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.HandlerOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.core.JobQueues;
import dev.jobqueue.support.RecordingTracing;
import dev.jobqueue.support.RecordingTracing.Execution;
import dev.jobqueue.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tracing on every database: the context an enqueue's span writes is stored with the job (one enqueue or a
 * batch) and handed back to the span of each of its executions, on whichever node; the job is in the MDC
 * while its handler runs.
 */
public abstract class TracingContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final HandlerOptions RETRIED_AT_ONCE = HandlerOptions.defaults()
		.retryPolicy(new RetryPolicy(3, Duration.ofMillis(10), Duration.ofMillis(10), 1.0, 0.0));

	private static final Map<String, String> FIRST_TRACE = Map.of("traceparent", "enqueue-1");

	private final RecordingTracing tracing = new RecordingTracing();

	protected abstract TestDatabase database();

	@BeforeEach
	void emptyTheQueue() {
		database().reset();
	}

	@Test
	void everyAttemptOfAJobContinuesTheTraceOfItsEnqueue() {
		try (JobQueues queues = builder().handler("greet", Greeting.class, RETRIED_AT_ONCE, (greeting, context) -> {
			if (context.attempt() == 1) {
				throw new IllegalStateException("first attempt refused");
			}
			return null;
		}).build()) {
			queues.start();
			long id = queues.jobQueue().enqueue("greet", new Greeting("Ada", 1));

			awaitState(queues.jobQueue(), id, JobState.succeeded);
			awaitClosedExecutions(2);
			assertThat(tracing.enqueues).singleElement().satisfies(enqueue -> {
				assertThat(List.of(enqueue.queue, enqueue.kind, enqueue.jobs)).containsExactly("default", "greet", 1);
				assertThat(enqueue.context).isEqualTo(FIRST_TRACE);
				assertThat(enqueue.closed).isTrue();
			});
			assertThat(tracing.executions).extracting(execution -> execution.context).containsOnly(FIRST_TRACE);
			assertThat(tracing.executions).extracting(execution -> execution.attempt).containsExactly(1, 2);
			assertThat(tracing.executions.get(0).error).hasMessage("first attempt refused");
			assertThat(tracing.executions.get(1).error).isNull();
		}
	}

	@Test
	void everyJobOfABatchCarriesTheContextOfItsEnqueue() {
		try (JobQueues queues = builder().handler("greet", Greeting.class, (greeting, context) -> null)
			.handler("wave", Greeting.class, (greeting, context) -> null)
			.build()) {
			List<Long> ids = queues.jobQueue()
				.enqueueAll(List.of(new NewJobRequest("greet", new Greeting("Ada", 1)),
						new NewJobRequest("greet", new Greeting("Alan", 2), EnqueueOptions.defaults().uniqueKey("alan")),
						new NewJobRequest("wave", new Greeting("Grace", 3))));

			assertThat(ids).allSatisfy(id -> assertThat(storedContext(id)).isEqualTo("{\"traceparent\":\"enqueue-1\"}"));
			assertThat(tracing.enqueues).singleElement().satisfies(enqueue -> {
				assertThat(List.of(enqueue.queue, enqueue.kind, enqueue.jobs)).containsExactly("default", "mixed", 3);
				assertThat(enqueue.closed).isTrue();
			});
			queues.start();
			awaitClosedExecutions(3);
			assertThat(tracing.executions).extracting(execution -> execution.id).containsExactlyInAnyOrderElementsOf(ids);
			assertThat(tracing.executions).extracting(execution -> execution.context).containsOnly(FIRST_TRACE);
		}
	}

	@Test
	void aJobEnqueuedOutsideATraceStoresNothingAndItsExecutionIsHandedNothing() {
		tracing.writingNothing();
		try (JobQueues queues = builder().handler("greet", Greeting.class, (greeting, context) -> null).build()) {
			queues.start();
			long id = queues.jobQueue().enqueue("greet", new Greeting("Ada", 1));

			awaitState(queues.jobQueue(), id, JobState.succeeded);
			awaitClosedExecutions(1);
			assertThat(storedContext(id)).isNull();
			assertThat(tracing.executions.get(0).context).isEmpty();
		}
	}

	@Test
	void aStoredContextThatCannotBeReadStartsATraceOfItsOwnAndTheJobRuns() {
		try (JobQueues queues = builder().handler("greet", Greeting.class, (greeting, context) -> null).build()) {
			long id = queues.jobQueue().enqueue("greet", new Greeting("Ada", 1));
			JdbcClient.create(database().dataSource())
				.sql("UPDATE jobqueue_job SET trace_context = 'not json' WHERE id = :id")
				.param("id", id)
				.update();
			queues.start();

			awaitState(queues.jobQueue(), id, JobState.succeeded);
			awaitClosedExecutions(1);
			assertThat(tracing.executions.get(0).context).isEmpty();
		}
	}

	@Test
	void theJobsIdKindAndAttemptAreInTheMdcWhileItsHandlerRuns() {
		Map<String, String> seen = new ConcurrentHashMap<>();
		try (JobQueues queues = builder().handler("greet", Greeting.class, (greeting, context) -> {
			seen.putAll(MDC.getCopyOfContextMap());
			return null;
		}).build()) {
			queues.start();
			long id = queues.jobQueue().enqueue("greet", new Greeting("Ada", 1));

			awaitState(queues.jobQueue(), id, JobState.succeeded);
			assertThat(seen).containsAllEntriesOf(Map.of("jobqueue.job.id", Long.toString(id), "jobqueue.job.kind",
					"greet", "jobqueue.job.attempt", "1"));
		}
	}

	private JobQueues.Builder builder() {
		return JobQueues.builder(database().dataSource())
			.tracing(tracing)
			.settings(settings -> settings.pollInterval(Duration.ofMillis(50)));
	}

	private String storedContext(long id) {
		return JdbcClient.create(database().dataSource())
			.sql("SELECT trace_context FROM jobqueue_job WHERE id = :id")
			.param("id", id)
			// single() refuses a null value, the one this column holds for an untraced job.
			.query((rows, row) -> rows.getString("trace_context"))
			.list()
			.get(0);
	}

	/** A handed-over completion is written while the runner closes the span: both are awaited. */
	private void awaitClosedExecutions(int count) {
		await().atMost(WAIT)
			.until(() -> tracing.executions.size() == count
					&& tracing.executions.stream().allMatch(execution -> execution.closed));
	}

	private static void awaitState(JobQueue queue, long id, JobState state) {
		await().atMost(WAIT).until(() -> queue.find(id).orElseThrow().state() == state);
	}
}
