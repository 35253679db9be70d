package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.Lease;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.InterceptedStore;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * A queue's prefetch: a claim takes jobs for the free threads and as many more as the prefetch lets wait in line on
 * the node. A job in line holds its lease, renewed by the heartbeat, so no other node runs it meanwhile; it starts
 * when a thread frees up, unless its queue or kind was paused meanwhile, and at a stop it either starts within the
 * shutdown timeout or goes back untouched. Its attempt counts only once its handler started.
 */
public abstract class PrefetchContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	/** How long the jobs in line wait at least, in the test of their waits. */
	private static final Duration IN_LINE = Duration.ofMillis(300);

	/** One thread, two jobs in line: a claim takes three. */
	private static final RuntimeSettings ONE_THREAD_TWO_IN_LINE = QueueFixture.SETTINGS.toBuilder()
		.queue(RuntimeSettings.DEFAULT_QUEUE, 1)
		.prefetch(RuntimeSettings.DEFAULT_QUEUE, 2)
		.build();

	private final CountDownLatch letGo = new CountDownLatch(1);

	/** How many times each job's handler started, by job id. */
	private final Map<Long, AtomicInteger> starts = new ConcurrentHashMap<>();

	private final AtomicInteger running = new AtomicInteger();

	private final AtomicInteger mostAtOnce = new AtomicInteger();

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.handle("held", Long.class, (n, context) -> {
			starts.computeIfAbsent(context.jobId(), id -> new AtomicInteger()).incrementAndGet();
			mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
			try {
				letGo.await();
			}
			finally {
				running.decrementAndGet();
			}
			return n;
		});
	}

	@AfterEach
	void tearDown() {
		letGo.countDown();
		fixture.close();
	}

	@Test
	void aClaimTakesJobsForTheFreeThreadsAndThePrefetchAndTheThreadsRunThemInTurn() {
		List<Long> ids = enqueue(5);
		CountingListener listener = new CountingListener();
		fixture.startRuntime(ONE_THREAD_TWO_IN_LINE, listener);

		await().atMost(WAIT).until(() -> starts.size() == 1
				&& states().equals(Map.of(JobState.running, 3L, JobState.ready, 2L)));
		List<Long> inLine = ids.stream().filter(id -> fixture.state(id) == JobState.running && !starts.containsKey(id))
			.toList();
		Instant claimedBefore = Instant.now();
		await().atMost(WAIT).until(() -> Instant.now().isAfter(claimedBefore.plus(IN_LINE)));
		assertThat(starts).hasSize(1);
		letGo.countDown();

		await().atMost(WAIT).until(() -> states().equals(Map.of(JobState.succeeded, 5L)));
		assertThat(starts.values()).allSatisfy(count -> assertThat(count).hasValue(1)).hasSize(5);
		assertThat(mostAtOnce).hasValue(1);
		// The wait the listener (and so the metrics) hears of counts the time in line, not only until the claim.
		assertThat(inLine).hasSize(2).allSatisfy(id -> assertThat(listener.waitOf(id)).isGreaterThanOrEqualTo(IN_LINE));
	}

	@Test
	void withoutAPrefetchAClaimTakesNoMoreJobsThanThereAreFreeThreads() {
		enqueue(3);
		fixture.startRuntime(QueueFixture.SETTINGS.toBuilder().queue(RuntimeSettings.DEFAULT_QUEUE, 1).build(),
				new CountingListener());

		await().atMost(WAIT).until(() -> starts.size() == 1);
		// Several poll intervals: a poller with a free place would have claimed again by now.
		await().pollDelay(Duration.ofMillis(500)).atMost(WAIT)
			.until(() -> states().equals(Map.of(JobState.running, 1L, JobState.ready, 2L)));
	}

	@Test
	void aJobInLineKeepsItsLeasePastItsExpiryWhileItWaitsAndNoOtherNodeRunsIt() {
		RuntimeSettings shortLease = ONE_THREAD_TWO_IN_LINE.toBuilder()
			.prefetch(RuntimeSettings.DEFAULT_QUEUE, 1)
			.lease(Duration.ofSeconds(2))
			.heartbeatInterval(Duration.ofMillis(300))
			.build();
		List<Long> ids = enqueue(2);
		JobRuntime holder = fixture.startRuntime(shortLease, new CountingListener());
		await().atMost(WAIT).until(() -> starts.size() == 1 && states().equals(Map.of(JobState.running, 2L)));
		long inLine = ids.stream().filter(id -> !starts.containsKey(id)).findFirst().orElseThrow();
		Instant firstExpiry = fixture.job(inLine).leaseExpiresAt();
		fixture.startRuntime(shortLease, new CountingListener());

		// Past the lease the claim granted, and past a reaper pass after it.
		await().atMost(WAIT).until(() -> Instant.now().isAfter(firstExpiry.plusMillis(500)));
		Job waiting = fixture.job(inLine);
		assertThat(waiting.state()).isEqualTo(JobState.running);
		assertThat(waiting.leaseOwner()).isEqualTo(holder.owner());
		assertThat(waiting.leaseExpiresAt()).isAfter(firstExpiry);
		assertThat(starts).doesNotContainKey(inLine);
		letGo.countDown();

		await().atMost(WAIT).until(() -> states().equals(Map.of(JobState.succeeded, 2L)));
		assertThat(fixture.job(inLine).attempt()).isEqualTo(1);
		assertThat(starts.get(inLine)).hasValue(1);
	}

	@Test
	void jobsStillInLineAtTheShutdownTimeoutNeverStartAndGoBackWithTheirAttempts() {
		RuntimeSettings quickStop = ONE_THREAD_TWO_IN_LINE.toBuilder()
			.shutdownTimeout(Duration.ofMillis(100))
			.shutdownGrace(WAIT)
			.build();
		List<Long> ids = enqueue(3);
		JobRuntime runtime = fixture.startRuntime(quickStop, new CountingListener());
		await().atMost(WAIT).until(() -> starts.size() == 1 && states().equals(Map.of(JobState.running, 3L)));

		runtime.stop();

		// The running job's handler exits at the stop's interrupt and is released as well.
		assertThat(states()).isEqualTo(Map.of(JobState.ready, 3L));
		assertThat(ids).allSatisfy(id -> assertThat(fixture.job(id).attempt()).isZero());
		assertThat(starts).hasSize(1);
		// A job that never started keeps the one release a job has, for an attempt it does start.
		assertThat(ids.stream().filter(id -> !starts.containsKey(id)))
			.allSatisfy(id -> assertThat(flag("attempt_given_back", id)).as("job %d given back", id).isFalse());
	}

	@Test
	void aJobInLineIsChargedNoAttemptUntilItsHandlerStarts() {
		// The node dies once the line is claimed: its heartbeats stop reaching the database, its leases run out.
		AtomicBoolean dead = new AtomicBoolean();
		JobStore dying = InterceptedStore.around(fixture.store(), "heartbeat",
				(args, proceed) -> dead.get() ? Set.copyOf((Collection<?>) args[1]) : proceed.call());
		List<Long> ids = enqueue(3, EnqueueOptions.defaults().maxAttempts(1));
		fixture.startRuntime(dying, ONE_THREAD_TWO_IN_LINE.toBuilder()
			.lease(Duration.ofSeconds(2))
			.heartbeatInterval(Duration.ofMillis(200))
			.build(), new CountingListener());
		await().atMost(WAIT).until(() -> starts.size() == 1 && states().equals(Map.of(JobState.running, 3L)));
		long started = starts.keySet().iterator().next();
		List<Long> inLine = ids.stream().filter(id -> id != started).toList();

		// Several heartbeats renew the line's leases and leave their claims unconfirmed.
		Instant claimedBy = Instant.now();
		await().atMost(WAIT).until(() -> Instant.now().isAfter(claimedBy.plusMillis(700)));
		assertThat(flag("claim_confirmed", started)).isTrue();
		assertThat(inLine).allSatisfy(id -> assertThat(flag("claim_confirmed", id)).as("job %d", id).isFalse());
		dead.set(true);

		await().atMost(WAIT).until(() -> fixture.state(started) == JobState.dead);
		await().atMost(WAIT).until(() -> inLine.stream().allMatch(id -> fixture.state(id) == JobState.ready));
		assertThat(fixture.job(started).attempt()).isEqualTo(1);
		assertThat(inLine).allSatisfy(id -> assertThat(fixture.job(id).attempt()).as("job %d", id).isZero());
		dead.set(false);
		letGo.countDown();

		await().atMost(WAIT).until(() -> inLine.stream().allMatch(id -> fixture.state(id) == JobState.succeeded));
		assertThat(inLine).allSatisfy(id -> assertThat(starts.get(id)).as("job %d", id).hasValue(1));
	}

	@Test
	void aJobInLineWhoseStartCouldNotBeConfirmedStartsAndItsHeartbeatConfirmsIt() throws InterruptedException {
		CountDownLatch keptStarted = new CountDownLatch(1);
		CountDownLatch letKeptGo = new CountDownLatch(1);
		fixture.handle("kept", Long.class, (n, context) -> {
			keptStarted.countDown();
			letKeptGo.await();
			return n;
		});
		JobStore unreachable = InterceptedStore.around(fixture.store(), "confirmStarts", (args, proceed) -> {
			throw new DataAccessResourceFailureException("the database is out of reach");
		});
		enqueue(1);
		long kept = fixture.queue().enqueue("kept", 1L);
		fixture.startRuntime(unreachable, ONE_THREAD_TWO_IN_LINE.toBuilder()
			.heartbeatInterval(Duration.ofMillis(200))
			.build(), new CountingListener());
		await().atMost(WAIT).until(() -> starts.size() == 1 && states().equals(Map.of(JobState.running, 2L)));
		assertThat(flag("claim_confirmed", kept)).isFalse();

		letGo.countDown();

		assertThat(keptStarted.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		await().atMost(WAIT).until(() -> flag("claim_confirmed", kept));
		letKeptGo.countDown();
		await().atMost(WAIT).until(() -> states().equals(Map.of(JobState.succeeded, 2L)));
	}

	@Test
	void aPauseStopsTheJobsInLineWhichGoBackWithoutAnAttempt() {
		List<Long> ids = enqueue(3);
		fixture.startRuntime(ONE_THREAD_TWO_IN_LINE, new CountingListener());
		await().atMost(WAIT).until(() -> starts.size() == 1 && states().equals(Map.of(JobState.running, 3L)));
		List<Long> inLine = ids.stream().filter(id -> !starts.containsKey(id)).toList();

		assertThat(fixture.queue().pause(RuntimeSettings.DEFAULT_QUEUE)).isTrue();
		letGo.countDown();

		await().atMost(WAIT).until(() -> !states().containsKey(JobState.running));
		assertThat(starts).hasSize(1);
		assertThat(states()).isEqualTo(Map.of(JobState.succeeded, 1L, JobState.ready, 2L));
		assertThat(inLine).allSatisfy(id -> {
			assertThat(fixture.state(id)).isEqualTo(JobState.ready);
			assertThat(fixture.job(id).attempt()).as("job %d", id).isZero();
			assertThat(flag("attempt_given_back", id)).as("job %d given back", id).isFalse();
		});
		fixture.queue().resume(RuntimeSettings.DEFAULT_QUEUE);

		await().atMost(WAIT).until(() -> states().equals(Map.of(JobState.succeeded, 3L)));
		assertThat(inLine).allSatisfy(id -> assertThat(fixture.job(id).attempt()).as("job %d", id).isEqualTo(1));
	}

	@Test
	void aPauseOfTheirKindStopsTheJobsInLineToo() {
		List<Long> ids = enqueue(3);
		fixture.startRuntime(ONE_THREAD_TWO_IN_LINE, new CountingListener());
		await().atMost(WAIT).until(() -> starts.size() == 1 && states().equals(Map.of(JobState.running, 3L)));
		List<Long> inLine = ids.stream().filter(id -> !starts.containsKey(id)).toList();

		assertThat(fixture.queue().pauseKind("held")).isTrue();
		letGo.countDown();

		await().atMost(WAIT).until(() -> !states().containsKey(JobState.running));
		assertThat(starts).hasSize(1);
		assertThat(states()).isEqualTo(Map.of(JobState.succeeded, 1L, JobState.ready, 2L));
		assertThat(inLine).allSatisfy(id -> assertThat(fixture.job(id).attempt()).as("job %d", id).isZero());
	}

	private List<Long> enqueue(int jobs) {
		return enqueue(jobs, EnqueueOptions.defaults());
	}

	private List<Long> enqueue(int jobs, EnqueueOptions options) {
		return LongStream.range(0, jobs).mapToObj(n -> fixture.queue().enqueue("held", n, options)).toList();
	}

	/** A boolean column of the job's row, read as every database can: 1 or 0. */
	private boolean flag(String column, long id) {
		return fixture.jdbc()
			.sql("SELECT CASE WHEN " + column + " THEN 1 ELSE 0 END FROM jobqueue_job WHERE id = :id")
			.param("id", id)
			.query(Integer.class)
			.single() == 1;
	}

	/** The test's jobs by state, all in the default queue of a database reset for the test; no state of none. */
	private Map<JobState, Long> states() {
		return fixture.counts().getOrDefault(RuntimeSettings.DEFAULT_QUEUE, Map.of());
	}
}
