package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobExplanation;
import dev.jobqueue.JobExplanation.Reason;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.NewJob.KeySlot;
import dev.jobqueue.store.NodeEntry;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.StatedJobs;
import dev.jobqueue.support.TestDatabase;

/**
 * {@code JobQueue.explain}: one test per reason, each asserting the sentence README documents. No runtime runs
 * (except where a test says so in its name): the nodes are rows written as a runtime writes its own, and jobs are claimed through the
 * store for a node that does nothing with them, so every state holds still while it is explained. Times in sentences are read back from
 * the job, to the second, as the sentences print them.
 */
public abstract class ExplainContractTest {

	private static final String NODE = "node-a";

	private static final Duration LEASE = Duration.ofMinutes(5);

	private QueueFixture fixture;

	private JobQueue queue;

	private JobStore store;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.handle("greet", Greeting.class, (greeting, context) -> null);
		queue = fixture.queue();
		store = fixture.store();
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@Test
	void aJobThatDoesNotExistIsNotFound() {
		assertExplained(queue.explain(999_999), Reason.NOT_FOUND,
				"No job 999999: it was never enqueued, or it finished and was pruned.");
	}

	@Test
	void aSucceededJobSaysWhen() {
		long id = enqueue();
		assertThat(store.outcomes().complete(claim().lease(), null)).isTrue();

		assertExplained(queue.explain(id), Reason.SUCCEEDED, "Job " + id + " succeeded at " + second(job(id).finishedAt()) + ".");
	}

	@Test
	void aCancelledJobSaysWhen() {
		long id = enqueue();
		queue.cancel(id);

		assertExplained(queue.explain(id), Reason.CANCELLED, "Job " + id + " was cancelled at " + second(job(id).finishedAt()) + ".");
	}

	@Test
	void aDeadJobGivesItsAttemptsAndTheFirstLineOfItsLastError() {
		long id = enqueue();
		store.outcomes().fail(claim().lease(), "java.lang.IllegalStateException: card declined\n\tat Billing.charge(Billing.java:12)");

		assertExplained(queue.explain(id), Reason.DEAD,
				"Job " + id + " is dead after 1 attempt; the last failed with: java.lang.IllegalStateException: card declined");
	}

	@Test
	void aDeadJobThatHoldsItsKeysSlotSaysRetentionKeepsItUntilItIsRetriedOrCancelled() {
		long holder = new StatedJobs(store).deadHoldingKey("default", "greet", "ledger-1");
		long freed = enqueueKeyed(new KeySlot("ledger-2", 1, false));
		store.promotions().promote(List.of("ledger-2"));
		store.outcomes().fail(claim().lease(), "step failed");

		assertExplained(queue.explain(holder), Reason.DEAD, "Job " + holder + " is dead after 1 attempt; it holds its "
				+ "slot of concurrency key 'ledger-1' and is kept past retention until retried or cancelled; the last "
				+ "failed with: step failed");
		assertExplained(queue.explain(freed), Reason.DEAD,
				"Job " + freed + " is dead after 1 attempt; the last failed with: step failed");
	}

	@Test
	void aRunningJobNamesItsNodeAndItsLease() {
		long id = enqueue();
		claim();

		Job job = job(id);
		assertExplained(queue.explain(id), Reason.RUNNING, "Job " + id + " is running (attempt 1 of " + job.maxAttempts()
				+ ") on node node-a; its lease runs until " + second(job.leaseExpiresAt()) + ".");
	}

	@Test
	void aJobOfAPausedQueueSaysSince() {
		liveNode(Map.of("default", 2), "greet");
		long id = enqueue();
		queue.pause("default");

		assertExplained(queue.explain(id), Reason.QUEUE_PAUSED,
				"Job " + id + " waits: queue 'default' is paused, since " + second(queue.pausedQueues().get("default")) + ".");
	}

	@Test
	void aJobOfAPausedKindSaysSince() {
		liveNode(Map.of("default", 2), "greet");
		long id = enqueue();
		queue.pauseKind("greet");

		assertExplained(queue.explain(id), Reason.KIND_PAUSED,
				"Job " + id + " waits: kind 'greet' is paused, since " + second(queue.pausedKinds().get("greet")) + ".");
	}

	@Test
	void aPauseComesBeforeADueTime() {
		liveNode(Map.of("default", 2), "greet");
		long id = queue.enqueue("greet", new Greeting("Ada", 1), EnqueueOptions.defaults().delay(Duration.ofMinutes(4)));
		queue.pause("default");

		assertThat(queue.explain(id).reason()).isEqualTo(Reason.QUEUE_PAUSED);
	}

	@Test
	void aJobOfAQueueNoLiveNodeWorksSaysSo() {
		liveNode(Map.of("reports", 2), "greet");
		staleNode(Map.of("default", 2), "greet");
		long id = enqueue();

		assertExplained(queue.explain(id), Reason.NO_NODE_FOR_QUEUE, "Job " + id + " waits: no live node works queue 'default'.");
	}

	@Test
	void aJobOfAKindNoLiveNodeOfItsQueueServesSaysSo() {
		liveNode(Map.of("default", 2), "other");
		long id = enqueue();

		assertExplained(queue.explain(id), Reason.NO_NODE_FOR_KIND,
				"Job " + id + " waits: no live node that works queue 'default' has a handler for kind 'greet'.");
	}

	@Test
	void aJobBehindTheHolderOfItsConcurrencyKeyNamesTheHolderAndTheJobsBeforeIt() {
		liveNode(Map.of("default", 2), "greet");
		EnqueueOptions keyed = EnqueueOptions.defaults().concurrencyKey("account-1");
		long holder = queue.enqueue("greet", new Greeting("Ada", 1), keyed);
		await().until(() -> job(holder).state() == JobState.ready);
		long second = queue.enqueue("greet", new Greeting("Ada", 2), keyed);
		long third = queue.enqueue("greet", new Greeting("Ada", 3), keyed);

		assertExplained(queue.explain(second), Reason.CONCURRENCY_KEY_HELD,
				"Job " + second + " waits for concurrency key 'account-1': its slot is held by job " + holder + ".");
		assertExplained(queue.explain(third), Reason.CONCURRENCY_KEY_HELD, "Job " + third
				+ " waits for concurrency key 'account-1': its slot is held by job " + holder
				+ ". 1 earlier job of the key waits before it.");
	}

	@Test
	void aJobOfAKeyWhoseRateIsUsedUpSaysWhenTheWindowBegan() {
		liveNode(Map.of("default", 2), "greet");
		KeySlot rated = new KeySlot("partner-api", 1, false, Duration.ofHours(1));
		long started = enqueueKeyed(rated);
		store.promotions().promote(List.of("partner-api"));
		store.outcomes().complete(claim().lease(), null);
		long waiting = enqueueKeyed(rated);

		assertExplained(queue.explain(waiting), Reason.RATE_LIMITED, "Job " + waiting + " waits for concurrency key "
				+ "'partner-api', rate-limited to 1 start per 1 h: 1 job of the key started within the last 1 h, the first at "
				+ second(job(started).startedAt()) + ".");
	}

	@Test
	void aBlockedJobWhoseKeyHasAFreeSlotAwaitsThePromotion() {
		liveNode(Map.of("default", 2), "greet");
		long id = enqueueKeyed(new KeySlot("account-2", 1, false));

		assertExplained(queue.explain(id), Reason.AWAITING_PROMOTION, "Job " + id + " waits for concurrency key 'account-2', "
				+ "which has a free slot: the key's next promotion hands its free slots to its "
				+ "waiting jobs in enqueue order.");
	}

	@Test
	void aJobInBackoffGivesTheFailedAttemptItsErrorAndWhenItIsDue() {
		liveNode(Map.of("default", 2), "greet");
		long id = enqueue();
		store.outcomes().retryLater(claim().lease(), Duration.ofMinutes(10),
				"java.lang.IllegalStateException: mail server busy\n\tat Mailer.send(Mailer.java:7)");

		assertExplained(queue.explain(id), Reason.IN_BACKOFF, "Job " + id + " is in backoff after attempt 1 failed with: "
				+ "java.lang.IllegalStateException: mail server busy; due in 10 m, at " + second(job(id).runAt()) + ".");
	}

	@Test
	void aDelayedJobIsDueInFourMinutes() {
		liveNode(Map.of("default", 2), "greet");
		long id = queue.enqueue("greet", new Greeting("Ada", 1), EnqueueOptions.defaults().delay(Duration.ofMinutes(4)));

		assertExplained(queue.explain(id), Reason.DUE_LATER, "Job " + id + " is due in 4 m, at " + second(job(id).runAt()) + ".");
	}

	@Test
	void aDueJobWhoseNodesAreBusyCountsTheJobsAheadOfIt() {
		liveNode(Map.of("default", 1), "greet");
		enqueue();
		claim();
		enqueue();
		long late = enqueue();
		long urgent = queue.enqueue("greet", new Greeting("Ada", 1), EnqueueOptions.defaults().priority(0));

		assertExplained(queue.explain(late), Reason.NODES_BUSY, "Job " + late + " is due, but every thread that would run "
				+ "it is busy (1 thread of queue 'default', on 1 live node); 2 older or higher-priority jobs are ahead of it.");
		assertExplained(queue.explain(urgent), Reason.NODES_BUSY, "Job " + urgent + " is due, but every thread that would "
				+ "run it is busy (1 thread of queue 'default', on 1 live node); it is next in line.");
	}

	@Test
	void aDueJobWithAFreeThreadShouldStartWithinAPollInterval() {
		liveNode(Map.of("default", 2), "greet");
		long id = enqueue();

		assertExplained(queue.explain(id), Reason.READY,
				"Job " + id + " is due and a thread is free: a node should start it within a poll interval.");
	}

	@Test
	void aRunningRuntimeIsTheNodeThatExplainSeesRunningAndBusy() throws InterruptedException {
		CountDownLatch release = new CountDownLatch(1);
		fixture.handle("hold", Greeting.class, (greeting, context) -> {
			release.await();
			return null;
		});
		JobRuntime runtime = fixture.startRuntime(QueueFixture.SETTINGS.toBuilder().queue("default", 1).build(),
				new CountingListener());
		long running = queue.enqueue("hold", new Greeting("Ada", 1));
		await().until(() -> job(running).state() == JobState.running);
		long waiting = queue.enqueue("hold", new Greeting("Ada", 2));

		assertThat(queue.explain(running).message()).startsWith("Job " + running + " is running (attempt 1 of 3) on node "
				+ runtime.owner() + ";");
		assertExplained(queue.explain(waiting), Reason.NODES_BUSY, "Job " + waiting + " is due, but every thread that "
				+ "would run it is busy (1 thread of queue 'default', on 1 live node); it is next in line.");
		release.countDown();
		await().until(() -> job(waiting).state() == JobState.succeeded);
	}

	private static void assertExplained(JobExplanation explanation, Reason reason, String message) {
		assertThat(explanation.message()).isEqualTo(message);
		assertThat(explanation.reason()).isEqualTo(reason);
	}

	private long enqueue() {
		return queue.enqueue("greet", new Greeting("Ada", 1));
	}

	/** Written blocked, as an enqueue with a key writes it, with no promotion after. */
	private long enqueueKeyed(KeySlot slot) {
		return store.enqueues().enqueue(new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, null, slot)).id();
	}

	/** Claims the first due job of the default queue for {@link #NODE}, which never finishes it on its own. */
	private ClaimedJob claim() {
		List<ClaimedJob> claimed = store.claims().claim("default", Map.of("greet", 1), 1, NODE, LEASE, false);
		assertThat(claimed).hasSize(1);
		return claimed.get(0);
	}

	private void liveNode(Map<String, Integer> queues, String kind) {
		store.nodes().registerNode(new NodeEntry(NODE, "host-a", "1.0.0", queues, List.of(kind)), LEASE);
	}

	private void staleNode(Map<String, Integer> queues, String kind) {
		store.nodes().registerNode(new NodeEntry("node-gone", "host-b", "1.0.0", queues, List.of(kind)), Duration.ofMillis(1));
		await().until(() -> queue.nodes().stream().noneMatch(node -> node.name().equals("node-gone")));
	}

	private Job job(long id) {
		return fixture.job(id);
	}

	private static String second(Instant instant) {
		return instant.truncatedTo(ChronoUnit.SECONDS).toString();
	}
}
