package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.Node;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.WorkerQueues;
import dev.jobqueue.core.JobQueues;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/** A queue resized on a running node: more of its jobs at once, or fewer, on every database. */
public abstract class QueueResizeContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	/** Handed out to the handlers one per job; released in bulk by the tests, and at the end. */
	private final Semaphore gate = new Semaphore(0);

	private final AtomicInteger running = new AtomicInteger();

	/** For each job in the order they started, how many ran at that moment, itself included. */
	private final List<Integer> runningAtStart = new CopyOnWriteArrayList<>();

	private final List<Long> interrupted = new CopyOnWriteArrayList<>();

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.handle("gated", Greeting.class, (greeting, context) -> {
			runningAtStart.add(running.incrementAndGet());
			try {
				gate.acquire();
			}
			catch (InterruptedException ex) {
				interrupted.add(context.jobId());
			}
			finally {
				running.decrementAndGet();
			}
			return null;
		});
	}

	@AfterEach
	void tearDown() {
		gate.release(1_000);
		fixture.close();
	}

	@Test
	void aQueueGrownAtRuntimeRunsMoreOfItsJobsAtOnceAndTheNodeRegistrySaysSo() {
		JobRuntime runtime = start(1);
		List<Long> ids = enqueue(5);
		await().atMost(WAIT).until(() -> running.get() == 1);
		await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> running.get() == 1);

		runtime.queues().resize(RuntimeSettings.DEFAULT_QUEUE, 3);

		await().atMost(WAIT).until(() -> running.get() == 3);
		assertThat(runtime.queues().concurrency()).containsEntry(RuntimeSettings.DEFAULT_QUEUE, 3);
		assertThat(fixture.queue().nodes()).singleElement()
			.satisfies(node -> assertThat(node.queues()).containsEntry(RuntimeSettings.DEFAULT_QUEUE, 3));
		gate.release(1_000);
		ids.forEach(id -> awaitState(id, JobState.succeeded));
		assertThat(runningAtStart).allMatch(count -> count <= 3);
	}

	@Test
	void aQueueShrunkAtRuntimeLetsItsRunningJobsFinishThenRunsNoMoreThanItsNewSize() {
		JobRuntime runtime = start(3);
		List<Long> ids = enqueue(6);
		await().atMost(WAIT).until(() -> running.get() == 3);

		runtime.queues().resize(RuntimeSettings.DEFAULT_QUEUE, 1);
		gate.release(3);

		await().atMost(WAIT).until(() -> runningAtStart.size() == 4);
		await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> running.get() == 1);
		gate.release(1_000);

		ids.forEach(id -> awaitState(id, JobState.succeeded));
		assertThat(interrupted).as("jobs interrupted by the resize").isEmpty();
		assertThat(runningAtStart.subList(0, 3)).containsExactly(1, 2, 3);
		assertThat(runningAtStart.subList(3, 6)).as("jobs running as each job after the resize started")
			.containsOnly(1);
		assertThat(fixture.queue().nodes()).singleElement()
			.satisfies(node -> assertThat(node.queues()).containsEntry(RuntimeSettings.DEFAULT_QUEUE, 1));
	}

	@Test
	void aResizeOfAQueueTheNodeDoesNotWorkOrToNoThreadIsRefusedAndChangesNothing() {
		JobRuntime runtime = start(2);
		WorkerQueues queues = runtime.queues();

		assertThatIllegalArgumentException().isThrownBy(() -> queues.resize("mial", 4))
			.withMessage("this node does not work queue 'mial'; it works [default]. A node's queues are set at its "
					+ "start, by jobqueue.queues.<name>.concurrency");
		assertThatIllegalArgumentException().isThrownBy(() -> queues.resize(RuntimeSettings.DEFAULT_QUEUE, 0))
			.withMessage("a queue's concurrency must be at least 1, was 0 for queue 'default'; to stop its jobs from "
					+ "starting, pause the queue");
		assertThat(queues.concurrency()).isEqualTo(Map.of(RuntimeSettings.DEFAULT_QUEUE, 2));
		assertThat(fixture.queue().nodes()).singleElement().extracting(Node::queues)
			.isEqualTo(Map.of(RuntimeSettings.DEFAULT_QUEUE, 2));
	}

	@Test
	void theJobQueueOfANodeResizesItsRuntimesQueuesAndOneWithoutWorkersSaysItHasNone() {
		try (JobQueues node = JobQueues.builder(database().dataSource())
			.handler("greet", Greeting.class, (greeting, context) -> greeting.name())
			.queue("mail", 2)
			.build()) {
			node.start();
			JobQueue jobs = node.jobQueue();

			jobs.queues().resize("mail", 5);

			assertThat(jobs.queues().concurrency()).containsEntry("mail", 5);
			assertThat(jobs.nodes()).singleElement()
				.satisfies(registered -> assertThat(registered.queues()).containsEntry("mail", 5));
		}
		assertThat(fixture.queue().queues().concurrency()).isEmpty();
		assertThatIllegalStateException().isThrownBy(() -> fixture.queue().queues().resize("mail", 5))
			.withMessageStartingWith("this node runs no workers");
	}

	private JobRuntime start(int concurrency) {
		return fixture.startRuntime(QueueFixture.SETTINGS.toBuilder()
			.queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, concurrency))
			.build(), new CountingListener());
	}

	private List<Long> enqueue(int count) {
		return IntStream.range(0, count)
			.mapToObj(i -> fixture.queue().enqueue("gated", new Greeting("job " + i, i)))
			.toList();
	}

	private void awaitState(long id, JobState state) {
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(state));
	}
}
