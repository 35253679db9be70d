package dev.jobqueue.contract;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.HandlerOptions;
import dev.jobqueue.JobArgs;
import dev.jobqueue.Job;
import dev.jobqueue.JobContext;
import dev.jobqueue.JobKind;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.core.JobQueues;
import dev.jobqueue.support.TestDatabase;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/** The core without Spring Boot, as a user meets it: one builder, then start, enqueue, close. */
public abstract class JobQueuesContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	protected abstract TestDatabase database();

	@BeforeEach
	void emptyTheQueue() {
		database().reset();
	}

	@Test
	void handlersDeclaredOnTheBuilderRunTheirJobsOnTheirQueues() {
		Map<String, String> ranOn = new ConcurrentHashMap<>();
		try (JobQueues queues = JobQueues.builder(database().dataSource())
			.handler("greet", Greeting.class, (greeting, context) -> noteQueue(ranOn, greeting, context))
			.handler("mail", Greeting.class, HandlerOptions.defaults().queue("mail"),
					(greeting, context) -> noteQueue(ranOn, greeting, context))
			.queue("mail", 2)
			.settings(settings -> settings.pollInterval(Duration.ofMillis(100)))
			.build()) {
			queues.start();
			JobQueue queue = queues.jobQueue();
			long greet = queue.enqueue("greet", new Greeting("Ada", 1));
			long mail = queue.enqueue("mail", new Greeting("Grace", 2));

			awaitState(queue, greet, JobState.succeeded);
			awaitState(queue, mail, JobState.succeeded);
			assertThat(ranOn).containsExactlyInAnyOrderEntriesOf(Map.of("Ada", "default", "Grace", "mail"));
			assertThat(queue.find(greet).orElseThrow().result()).isEqualTo("\"default\"");
		}
	}

	@Test
	void aNodeDedicatedToOtherQueuesLeavesTheDefaultQueueToANodeThatWorksIt() {
		Map<String, String> ranOn = new ConcurrentHashMap<>();
		try (JobQueues mailNode = node("mail node", ranOn).queue("default", 0).queue("mail", 2).build()) {
			mailNode.start();
			JobQueue queue = mailNode.jobQueue();
			long greet = queue.enqueue("greet", new Greeting("Ada", 1));
			long mail = queue.enqueue("mail", new Greeting("Grace", 2));

			awaitState(queue, mail, JobState.succeeded);
			assertThat(queue.find(greet).orElseThrow().state()).isEqualTo(JobState.ready);
			try (JobQueues defaultNode = node("default node", ranOn).build()) {
				defaultNode.start();
				awaitState(queue, greet, JobState.succeeded);
			}
			assertThat(ranOn).containsExactlyInAnyOrderEntriesOf(Map.of("Ada", "default node", "Grace", "mail node"));
		}
	}

	/** A node that serves both kinds, noting by payload name which node ran each job. */
	private JobQueues.Builder node(String name, Map<String, String> ranOn) {
		return JobQueues.builder(database().dataSource())
			.handler("greet", Greeting.class, (greeting, context) -> ranOn.put(greeting.name(), name))
			.handler("mail", Greeting.class, HandlerOptions.defaults().queue("mail"),
					(greeting, context) -> ranOn.put(greeting.name(), name))
			.settings(settings -> settings.pollInterval(Duration.ofMillis(100)));
	}

	@Test
	void aHandlerOwnRetryPolicyAppliesToItsJobs() {
		try (JobQueues queues = JobQueues.builder(database().dataSource())
			.handler("fail", Greeting.class,
					HandlerOptions.defaults().retryPolicy(new RetryPolicy(2, Duration.ofMillis(10),
							Duration.ofMillis(10), 1.0, 0.0)),
					(greeting, context) -> {
						throw new IllegalStateException("refused " + greeting.name());
					})
			.settings(settings -> settings.pollInterval(Duration.ofMillis(50)))
			.build()) {
			queues.start();
			long id = queues.jobQueue().enqueue("fail", new Greeting("Ada", 1));

			awaitState(queues.jobQueue(), id, JobState.dead);
			assertThat(queues.jobQueue().find(id).orElseThrow().attempt()).isEqualTo(2);
		}
	}

	@Test
	void closingStopsTheWorkersAndAJobEnqueuedAfterwardsWaits() {
		JobQueues queues = JobQueues.builder(database().dataSource())
			.handler("greet", Greeting.class, (greeting, context) -> null)
			.build();
		queues.start();
		assertThat(queues.isRunning()).isTrue();

		queues.close();

		assertThat(queues.isRunning()).isFalse();
		long id = queues.jobQueue().enqueue("greet", new Greeting("Ada", 1));
		assertThat(queues.jobQueue().find(id).orElseThrow().state()).isEqualTo(JobState.ready);
	}

	@Test
	void aKindDeclaredTwiceIsRefusedNamingIt() {
		JobQueues.Builder builder = JobQueues.builder(database().dataSource())
			.handler("greet", Greeting.class, (greeting, context) -> null);

		assertThatIllegalStateException()
			.isThrownBy(() -> builder.handler("greet", Greeting.class, (greeting, context) -> null))
			.withMessageContaining("Duplicate job kind 'greet'");
	}

	@Test
	void badSettingsAreRefusedNamingTheSetting() {
		JobQueues.Builder builder = JobQueues.builder(database().dataSource());

		assertThatIllegalArgumentException().isThrownBy(() -> builder.queue("mail queue", 2))
			.withMessageStartingWith("queue name must match");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> builder.settings(settings -> settings.lease(Duration.ofSeconds(5))).build())
			.withMessage("heartbeat-interval (PT10S) must be shorter than lease (PT5S)");
	}

	@Test
	void aHandlerAtANewerVersionReadsOlderJobsThroughTheUpcastersOfTheBuilder() {
		long id;
		try (JobQueues old = JobQueues.builder(database().dataSource())
			.handler("greet", Greeting.class, (greeting, context) -> null)
			.build()) {
			id = old.jobQueue().enqueue("greet", new Greeting("Ada Lovelace", 1));
		}
		try (JobQueues current = JobQueues.builder(database().dataSource())
			.handler("greet", FullName.class, HandlerOptions.defaults().version(2),
					(name, context) -> name.first() + "/" + name.last())
			.upcaster("greet", 1, JobQueuesContractTest::splitName)
			.settings(settings -> settings.pollInterval(Duration.ofMillis(100)))
			.build()) {
			current.start();

			awaitState(current.jobQueue(), id, JobState.succeeded);
			Job job = current.jobQueue().find(id).orElseThrow();
			assertThat(job.result()).isEqualTo("\"Ada/Lovelace\"");
			assertThat(job.payloadVersion()).isEqualTo(1);
		}
	}

	@Test
	void aGapInTheUpcastersIsRefusedAtBuildNamingTheMissingStep() {
		JobQueues.Builder builder = JobQueues.builder(database().dataSource())
			.handler("greet", FullName.class, HandlerOptions.defaults().version(3), (name, context) -> null)
			.upcaster("greet", 1, JobQueuesContractTest::splitName);

		assertThatIllegalStateException().isThrownBy(builder::build)
			.withMessageContaining("no upcaster from version 2");
	}

	@Test
	void aHandlerRegisteredForAPayloadTypeServesTheKindItsTypeNames() {
		try (JobQueues queues = JobQueues.builder(database().dataSource())
			.handler(Welcome.class, (welcome, context) -> "welcomed " + welcome.name())
			.handler("maybe", Greeting.class, HandlerOptions.defaults().nullablePayload(true),
					(greeting, context) -> greeting == null ? "none" : greeting.name())
			.settings(settings -> settings.pollInterval(Duration.ofMillis(100)))
			.build()) {
			queues.start();
			long id = queues.jobQueue().enqueue(new Welcome("Ada"));
			long none = queues.jobQueue().enqueue("maybe", null);

			awaitState(queues.jobQueue(), id, JobState.succeeded);
			awaitState(queues.jobQueue(), none, JobState.succeeded);
			assertThat(queues.jobQueue().find(id).orElseThrow().kind()).isEqualTo("welcome");
			assertThat(queues.jobQueue().result(id, String.class)).contains("welcomed Ada");
			assertThat(queues.jobQueue().result(none, String.class)).contains("none");
		}
	}

	@Test
	void aPayloadTypeThatNamesNoKindIsRefusedAtRegistration() {
		JobQueues.Builder builder = JobQueues.builder(database().dataSource());

		assertThatIllegalArgumentException()
			.isThrownBy(() -> builder.handler(Unnamed.class, (unnamed, context) -> null))
			.withMessage(Unnamed.class.getName() + " names no kind: annotate it @JobKind(\"…\"), or register its "
					+ "handler with handler(kind, Unnamed.class, …)");
	}

	@JobKind("welcome")
	private record Welcome(String name) implements JobArgs {
	}

	private record Unnamed(String name) implements JobArgs {
	}

	/** Version 2 of the greeting split its name in two. */
	private static JsonNode splitName(JsonNode payload) {
		ObjectNode next = ((ObjectNode) payload).deepCopy();
		String[] parts = next.remove("name").asString().split(" ", 2);
		return next.put("first", parts[0]).put("last", parts[1]);
	}

	private record FullName(String first, String last, int count) {
	}

	private static String noteQueue(Map<String, String> ranOn, Greeting greeting, JobContext context) {
		ranOn.put(greeting.name(), context.queue());
		return context.queue();
	}

	private static void awaitState(JobQueue queue, long id, JobState state) {
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(queue.find(id).orElseThrow().state()).isEqualTo(state));
	}
}
