package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.Batch;
import dev.jobqueue.BatchCounts;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.EnqueuedBatch;
import dev.jobqueue.JobExplanation;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.NonRetryableException;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * Batches on every database: a batch's callback runs once after every one of its jobs has finished, however many
 * nodes end them, and reads the counts per outcome; a failure callback runs at the first dead job, or is cancelled
 * when there is none; what no worker saw end is settled by the sweep; bad batches are refused, writing nothing.
 */
public abstract class BatchContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final Map<String, Long> started = new ConcurrentHashMap<>();

	private final Map<String, Long> ended = new ConcurrentHashMap<>();

	/** Each run of a callback, with the counts its handler read. */
	private final Queue<String> callbacks = new ConcurrentLinkedQueue<>();

	private final CountDownLatch letGo = new CountDownLatch(1);

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.handle("item", Greeting.class, (greeting, context) -> {
			started.put(greeting.name(), System.nanoTime());
			ended.put(greeting.name(), System.nanoTime());
			return null;
		});
		fixture.handle("fail", Greeting.class, (greeting, context) -> {
			throw new NonRetryableException("it broke");
		});
		fixture.handle("held", Greeting.class, (greeting, context) -> {
			letGo.await(WAIT.toSeconds(), TimeUnit.SECONDS);
			return null;
		});
		fixture.handle("callback", Greeting.class, (greeting, context) -> {
			started.put(greeting.name(), System.nanoTime());
			BatchCounts counts = context.batch().orElseThrow();
			callbacks.add("%s %d/%d succeeded=%d dead=%d cancelled=%d".formatted(greeting.name(),
					counts.total() - counts.unfinished(), counts.total(), counts.succeeded(), counts.dead(),
					counts.cancelled()));
			return null;
		});
	}

	@AfterEach
	void tearDown() {
		letGo.countDown();
		fixture.close();
	}

	@Test
	void theCallbackRunsOnceAfterEveryJobOfTheBatchFinishedAndReadsTheCountsPerOutcome() {
		fixture.startRuntime();
		Batch batch = fixture.queue().batch();
		for (int i = 0; i < 40; i++) {
			batch.add("item", new Greeting("item-" + i, 1));
		}
		batch.add("fail", new Greeting("broken", 1), EnqueueOptions.defaults().maxAttempts(1));
		EnqueuedBatch enqueued = batch.onFinish("callback", new Greeting("done", 1)).enqueue();

		assertThat(enqueued.jobIds()).hasSize(41);
		awaitState(enqueued.onFinish().orElseThrow(), JobState.succeeded);
		assertThat(callbacks).containsExactly("done 41/41 succeeded=40 dead=1 cancelled=0");
		assertThat(started.get("done")).isGreaterThan(ended.values().stream().max(Long::compare).orElseThrow());
		assertThat(fixture.queue().batchCounts(enqueued.id())).contains(
				new BatchCounts(enqueued.id(), 41, 0, 40, 1, 0, 0));
	}

	@Test
	void runtimesOnTwoNodesEndingTheLastJobsStartTheCallbackOnce() {
		fixture.startRuntime();
		fixture.startRuntime();
		for (int round = 0; round < 5; round++) {
			Batch batch = fixture.queue().batch();
			for (int i = 0; i < 60; i++) {
				batch.add("item", new Greeting("item-" + round + "-" + i, 1));
			}
			EnqueuedBatch enqueued = batch.onFinish("callback", new Greeting("done-" + round, 1)).enqueue();
			awaitState(enqueued.onFinish().orElseThrow(), JobState.succeeded);
		}

		assertThat(callbacks).hasSize(5).allMatch(run -> run.endsWith("60/60 succeeded=60 dead=0 cancelled=0"));
	}

	@Test
	void theFailureCallbackRunsAtTheFirstDeadJobWhileTheBatchRunsOn() {
		fixture.startRuntime();
		EnqueuedBatch enqueued = fixture.queue().batch()
			.add("fail", new Greeting("broken", 1), EnqueueOptions.defaults().maxAttempts(1))
			.add("held", new Greeting("slow", 1))
			.onFinish("callback", new Greeting("done", 1))
			.onFailure("callback", new Greeting("alert", 1))
			.enqueue();

		awaitState(enqueued.onFailure().orElseThrow(), JobState.succeeded);
		assertThat(fixture.state(enqueued.onFinish().orElseThrow())).isEqualTo(JobState.waiting);
		assertThat(callbacks).containsExactly("alert 1/2 succeeded=0 dead=1 cancelled=0");

		letGo.countDown();
		awaitState(enqueued.onFinish().orElseThrow(), JobState.succeeded);
		assertThat(callbacks).containsExactly("alert 1/2 succeeded=0 dead=1 cancelled=0",
				"done 2/2 succeeded=1 dead=1 cancelled=0");
	}

	@Test
	void aFailureCallbackIsCancelledWhenTheBatchFinishesWithoutADeadJob() {
		fixture.startRuntime();
		EnqueuedBatch enqueued = fixture.queue().batch()
			.add("item", new Greeting("a", 1))
			.add("item", new Greeting("b", 1))
			.onFinish("callback", new Greeting("done", 1))
			.onFailure("callback", new Greeting("alert", 1))
			.enqueue();

		awaitState(enqueued.onFinish().orElseThrow(), JobState.succeeded);
		awaitState(enqueued.onFailure().orElseThrow(), JobState.cancelled);
		assertThat(fixture.job(enqueued.onFailure().orElseThrow()).lastError())
			.isEqualTo("batch %d finished without a dead job".formatted(enqueued.id()));
		assertThat(callbacks).containsExactly("done 2/2 succeeded=2 dead=0 cancelled=0");
	}

	@Test
	void aCallbackWaitsOutsideTheClaimAndExplainSaysHowFarItsBatchHasCome() {
		EnqueuedBatch enqueued = fixture.queue().batch()
			.add("item", new Greeting("a", 1))
			.add("item", new Greeting("b", 1))
			.add("item", new Greeting("c", 1))
			.onFinish("callback", new Greeting("done", 1))
			.onFailure("callback", new Greeting("alert", 1))
			.enqueue();
		long onFinish = enqueued.onFinish().orElseThrow();

		assertThat(fixture.state(onFinish)).isEqualTo(JobState.waiting);
		assertThat(count("SELECT count(*) FROM jobqueue_job WHERE has_dependents"))
			.as("the batch's jobs, marked for their workers to settle the batch as each ends")
			.isEqualTo(3);
		JobExplanation explanation = fixture.queue().explain(onFinish);
		assertThat(explanation.reason()).isEqualTo(JobExplanation.Reason.WAITING_FOR_BATCH);
		assertThat(explanation.message()).isEqualTo("Job %d runs once batch %d has finished: 3 of its 3 jobs have not "
			.formatted(onFinish, enqueued.id()) + "finished.");
		assertThat(fixture.queue().explain(enqueued.onFailure().orElseThrow()).message()).contains(
				"runs if a job of batch %d ends dead".formatted(enqueued.id()));
		assertThat(fixture.queue().batchCounts(enqueued.id()))
			.contains(new BatchCounts(enqueued.id(), 3, 3, 0, 0, 0, 0));
	}

	@Test
	void anOperatorsCancelOfTheBatchsLastJobsFinishesItAndItsCallbackRuns() {
		EnqueuedBatch enqueued = fixture.queue().batch()
			.add("item", new Greeting("a", 1))
			.add("item", new Greeting("b", 1))
			.onFinish("callback", new Greeting("done", 1))
			.enqueue();

		enqueued.jobIds().forEach(id -> assertThat(fixture.queue().cancel(id)).isTrue());

		awaitState(enqueued.onFinish().orElseThrow(), JobState.ready);
		fixture.startRuntime();
		awaitState(enqueued.onFinish().orElseThrow(), JobState.succeeded);
		assertThat(callbacks).containsExactly("done 2/2 succeeded=0 dead=0 cancelled=2");
	}

	@Test
	void aBatchWhoseLastJobEndedUnseenIsFinishedByTheSweep() {
		EnqueuedBatch enqueued = fixture.queue().batch()
			.add("item", new Greeting("a", 1))
			.onFinish("callback", new Greeting("done", 1))
			.onFailure("callback", new Greeting("alert", 1))
			.enqueue();
		fixture.jdbc().sql("UPDATE jobqueue_job SET state = 'dead' WHERE id = :id")
			.param("id", enqueued.jobIds().get(0))
			.update();

		fixture.startRuntime();

		awaitState(enqueued.onFinish().orElseThrow(), JobState.succeeded);
		awaitState(enqueued.onFailure().orElseThrow(), JobState.succeeded);
		assertThat(callbacks).containsExactlyInAnyOrder("done 1/1 succeeded=0 dead=1 cancelled=0",
				"alert 1/1 succeeded=0 dead=1 cancelled=0");
	}

	@Test
	void aFinishedBatchGoesWithItsLastJob() {
		fixture.startRuntime();
		EnqueuedBatch enqueued = fixture.queue().batch()
			.add("item", new Greeting("a", 1))
			.onFinish("callback", new Greeting("done", 1))
			.enqueue();
		awaitState(enqueued.onFinish().orElseThrow(), JobState.succeeded);

		assertThat(fixture.queue().deleteFinished(JobQuery.all().states(JobState.succeeded))).isEqualTo(2);

		assertThat(count("SELECT count(*) FROM jobqueue_batch_job")).isZero();
		assertThat(fixture.store().batches().prune()).isEqualTo(1);
		assertThat(fixture.queue().batchCounts(enqueued.id())).isEmpty();
	}

	@Test
	void badBatchesAreRefusedAndWriteNothing() {
		assertThatThrownBy(() -> fixture.queue().batch().onFinish("callback", new Greeting("done", 1)).enqueue())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessage("the batch has no jobs");
		assertThatThrownBy(() -> fixture.queue().batch().add("item", new Greeting("a", 1),
				EnqueueOptions.defaults().uniqueKey("a")))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageStartingWith("a batch's job cannot have a unique key");
		assertThatThrownBy(() -> fixture.queue().batch().onFinish("callback", new Greeting("done", 1),
				EnqueueOptions.defaults().after(1)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageStartingWith("a batch's callback cannot run after other jobs");
		assertThatThrownBy(() -> fixture.queue().batch()
			.add("item", new Greeting("a", 1))
			.add("no-such-kind", new Greeting("b", 1))
			.onFinish("callback", new Greeting("done", 1))
			.enqueue())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("kind 'no-such-kind' is unknown");

		assertThat(count("SELECT count(*) FROM jobqueue_job")).isZero();
		assertThat(count("SELECT count(*) FROM jobqueue_batch")).isZero();
	}

	@Test
	void aBatchEnqueuedInATransactionThatRollsBackLeavesNothing() {
		fixture.transactions().executeWithoutResult(status -> {
			fixture.queue().batch()
				.add("item", new Greeting("a", 1))
				.onFinish("callback", new Greeting("done", 1))
				.enqueue();
			status.setRollbackOnly();
		});

		assertThat(count("SELECT count(*) FROM jobqueue_job")).isZero();
		assertThat(count("SELECT count(*) FROM jobqueue_batch")).isZero();
		assertThat(count("SELECT count(*) FROM jobqueue_batch_job")).isZero();
	}

	private long count(String sql) {
		return fixture.jdbc().sql(sql).query(Long.class).single();
	}

	private void awaitState(long id, JobState state) {
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(state));
	}
}
