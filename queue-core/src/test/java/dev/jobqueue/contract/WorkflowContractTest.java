package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.DependencyFailure;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobExplanation;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.NonRetryableException;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * Jobs that run after others, alone ({@code EnqueueOptions.after}) and as a workflow's graph, on every database: a job
 * starts only once every job it runs after has finished, reads their results, is cancelled with its own dependents
 * when one it requires fails, and what names no job or forms a cycle is refused, writing nothing.
 */
public abstract class WorkflowContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	/** When each job's handler started and ended, by {@link System#nanoTime()}. */
	private final Map<String, Long> started = new ConcurrentHashMap<>();

	private final Map<String, Long> ended = new ConcurrentHashMap<>();

	private final CountDownLatch letGo = new CountDownLatch(1);

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.handle("step", Greeting.class, (greeting, context) -> {
			started.put(greeting.name(), System.nanoTime());
			sleep(50);
			ended.put(greeting.name(), System.nanoTime());
			return greeting.name() + " done";
		});
		fixture.handle("fail", Greeting.class, (greeting, context) -> {
			started.put(greeting.name(), System.nanoTime());
			throw new NonRetryableException("it broke");
		});
		fixture.handle("held", Greeting.class, (greeting, context) -> {
			started.put(greeting.name(), System.nanoTime());
			letGo.await(WAIT.toSeconds(), TimeUnit.SECONDS);
			return greeting.name() + " done";
		});
		fixture.handle("summary", Greeting.class, (greeting, context) -> {
			started.put(greeting.name(), System.nanoTime());
			List<Job> dependencies = context.dependencies();
			String results = dependencies.stream()
				.map(job -> job.state() + ":" + context.dependencyResult(job.id(), String.class).orElse("-"))
				.reduce((a, b) -> a + "," + b)
				.orElse("");
			return results;
		});
	}

	@AfterEach
	void tearDown() {
		letGo.countDown();
		fixture.close();
	}

	@Test
	void aDiamondRunsEachJobOnlyAfterEveryJobItRunsAfterSucceededAndTheLastReadsTheirResults() {
		fixture.startRuntime();

		Map<String, Long> ids = fixture.queue().workflow()
			.add("sign-up", "step", new Greeting("sign-up", 1))
			.add("welcome", "step", new Greeting("welcome", 1), "sign-up")
			.add("report", "step", new Greeting("report", 1), "sign-up")
			.add("summary", "summary", new Greeting("summary", 1), "welcome", "report")
			.enqueue();

		assertThat(ids).containsOnlyKeys("sign-up", "welcome", "report", "summary");
		awaitState(ids.get("summary"), JobState.succeeded);
		assertThat(started.get("welcome")).isGreaterThan(ended.get("sign-up"));
		assertThat(started.get("report")).isGreaterThan(ended.get("sign-up"));
		assertThat(started.get("summary")).isGreaterThan(ended.get("welcome")).isGreaterThan(ended.get("report"));
		assertThat(fixture.job(ids.get("summary")).result())
			.isEqualTo("\"succeeded:welcome done,succeeded:report done\"");
	}

	@Test
	void aJobThatRunsAfterAnotherWaitsOutsideTheClaimAndExplainNamesWhatItWaitsFor() {
		long first = fixture.queue().enqueue("step", new Greeting("first", 1));
		long second = fixture.queue().enqueue("step", new Greeting("second", 1), EnqueueOptions.defaults().after(first));

		assertThat(fixture.state(second)).isEqualTo(JobState.waiting);
		JobExplanation explanation = fixture.queue().explain(second);
		assertThat(explanation.reason()).isEqualTo(JobExplanation.Reason.WAITING_FOR_DEPENDENCIES);
		assertThat(explanation.message()).isEqualTo("Job %d waits for job %d (ready), of the 1 job it runs after."
			.formatted(second, first));
		assertThat(fixture.counts().values().iterator().next()).containsEntry(JobState.waiting, 1L);

		fixture.startRuntime();
		awaitState(second, JobState.succeeded);
		assertThat(started.get("second")).isGreaterThan(ended.get("first"));
	}

	@Test
	void aFailedDependencyCancelsTheJobsThatRequireItAndTheirsInTurnNamingIt() {
		fixture.startRuntime();

		Map<String, Long> ids = fixture.queue().workflow()
			.add("charge", "fail", new Greeting("charge", 1), EnqueueOptions.defaults().maxAttempts(1))
			.add("ship", "step", new Greeting("ship", 1), "charge")
			.add("notify", "step", new Greeting("notify", 1), "ship")
			.enqueue();

		awaitState(ids.get("notify"), JobState.cancelled);
		assertThat(fixture.state(ids.get("charge"))).isEqualTo(JobState.dead);
		assertThat(fixture.state(ids.get("ship"))).isEqualTo(JobState.cancelled);
		assertThat(fixture.job(ids.get("ship")).lastError())
			.isEqualTo("job %d, which it required, ended dead".formatted(ids.get("charge")));
		assertThat(fixture.job(ids.get("notify")).lastError())
			.isEqualTo("job %d, which it required, ended cancelled".formatted(ids.get("ship")));
		assertThat(fixture.job(ids.get("ship")).finishedAt()).isNotNull();
		assertThat(started).containsOnlyKeys("charge");
	}

	@Test
	void aWorkflowThatRunsWhenDependenciesFailRunsItsJobsAfterAFailureAndTheyReadIt() {
		fixture.startRuntime();

		Map<String, Long> ids = fixture.queue().workflow()
			.add("charge", "fail", new Greeting("charge", 1), EnqueueOptions.defaults().maxAttempts(1))
			.add("receipt", "step", new Greeting("receipt", 1))
			.add("summary", "summary", new Greeting("summary", 1), "charge", "receipt")
			.whenDependencyFails(DependencyFailure.RUN)
			.enqueue();

		awaitState(ids.get("summary"), JobState.succeeded);
		assertThat(fixture.job(ids.get("summary")).result()).isEqualTo("\"dead:-,succeeded:receipt done\"");
	}

	@Test
	void aJobThatRunsAfterOneAlreadyFinishedRunsAtOnce() {
		fixture.startRuntime();
		long first = fixture.queue().enqueue("step", new Greeting("first", 1));
		awaitState(first, JobState.succeeded);

		long second = fixture.queue().enqueue("step", new Greeting("second", 1), EnqueueOptions.defaults().after(first));

		awaitState(second, JobState.succeeded);
	}

	@Test
	void aJobEnqueuedAfterOneThatAlreadyRunsStartsOnceThatOneSucceeded() {
		fixture.startRuntime();
		long running = fixture.queue().enqueue("held", new Greeting("running", 1));
		await().atMost(WAIT).until(() -> started.containsKey("running"));

		long after = fixture.queue().enqueue("step", new Greeting("after", 1), EnqueueOptions.defaults().after(running));
		assertThat(fixture.state(after)).isEqualTo(JobState.waiting);
		letGo.countDown();

		awaitState(after, JobState.succeeded);
	}

	@Test
	void anOperatorsCancelOfADependencyCancelsTheJobsThatRequireIt() {
		long first = fixture.queue().enqueue("step", new Greeting("first", 1));
		long second = fixture.queue().enqueue("step", new Greeting("second", 1), EnqueueOptions.defaults().after(first));

		assertThat(fixture.queue().cancel(first)).isTrue();

		awaitState(second, JobState.cancelled);
		assertThat(fixture.job(second).lastError())
			.isEqualTo("job %d, which it required, ended cancelled".formatted(first));
	}

	@Test
	void aKeyedJobThatRunsAfterAnotherWaitsForItsKeysSlotOnceItsDependencySucceeded() {
		fixture.startRuntime();
		long first = fixture.queue().enqueue("step", new Greeting("first", 1));
		long keyed = fixture.queue().enqueue("step", new Greeting("keyed", 1),
				EnqueueOptions.defaults().after(first).concurrencyKey("customer-7"));

		awaitState(keyed, JobState.succeeded);
		assertThat(started.get("keyed")).isGreaterThan(ended.get("first"));
	}

	@Test
	void idsOfNoJobAreRefusedAndNothingIsWritten() {
		long first = fixture.queue().enqueue("step", new Greeting("first", 1));

		assertThatThrownBy(() -> fixture.queue().enqueue("step", new Greeting("second", 1),
				EnqueueOptions.defaults().after(first, first + 1000)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessage("after names jobs that do not exist: [%d]".formatted(first + 1000));
		assertThatThrownBy(() -> fixture.queue().workflow()
			.add("a", "step", new Greeting("a", 1))
			.add("b", "step", new Greeting("b", 1), EnqueueOptions.defaults().after(first + 1000), "a")
			.enqueue())
			.isInstanceOf(IllegalArgumentException.class);

		assertThat(jobCount()).isEqualTo(1);
	}

	@Test
	void aCycleOrANameOfNoJobInAWorkflowIsRefusedAndNothingIsWritten() {
		assertThatThrownBy(() -> fixture.queue().workflow()
			.add("root", "step", new Greeting("root", 1))
			.add("a", "step", new Greeting("a", 1), "b")
			.add("b", "step", new Greeting("b", 1), "a")
			.enqueue())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessage("the jobs [a, b] run after one another in a cycle, or after jobs that do");
		assertThatThrownBy(() -> fixture.queue().workflow()
			.add("a", "step", new Greeting("a", 1), "nowhere")
			.enqueue())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessage("job 'a' runs after 'nowhere', which is not in the workflow");
		assertThatThrownBy(() -> fixture.queue().workflow()
			.add("a", "step", new Greeting("a", 1))
			.add("a", "step", new Greeting("a", 2)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessage("job 'a' is in the workflow already");

		assertThat(jobCount()).isZero();
	}

	@Test
	void aWorkflowOfAnUnknownKindWritesNoneOfItsJobs() {
		assertThatThrownBy(() -> fixture.queue().workflow()
			.add("a", "step", new Greeting("a", 1))
			.add("b", "no-such-kind", new Greeting("b", 1), "a")
			.enqueue())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("kind 'no-such-kind' is unknown");

		assertThat(jobCount()).isZero();
	}

	@Test
	void aWorkflowEnqueuedInATransactionThatRollsBackLeavesNoJob() {
		fixture.transactions().executeWithoutResult(status -> {
			fixture.queue().workflow()
				.add("a", "step", new Greeting("a", 1))
				.add("b", "step", new Greeting("b", 1), "a")
				.enqueue();
			status.setRollbackOnly();
		});

		assertThat(jobCount()).isZero();
		assertThat(fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job_dependency").query(Long.class).single())
			.isZero();
	}

	@Test
	void manyJobsAtOnceTakeNoJobThatRunsAfterOthers() {
		long first = fixture.queue().enqueue("step", new Greeting("first", 1));

		assertThatThrownBy(() -> fixture.queue().enqueueAll(List.of(new JobQueue.NewJobRequest("step",
				new Greeting("second", 1), EnqueueOptions.defaults().after(first)))))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("enqueueAll takes no jobs that run after others");
		assertThat(jobCount()).isEqualTo(1);
	}

	private long jobCount() {
		return fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job").query(Long.class).single();
	}

	private void awaitState(long id, JobState state) {
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(state));
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}
}
