package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.PauseScope;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.InterceptedStore;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * Pausing and resuming queues and kinds, for the whole cluster. A node's claims are counted, so that a test
 * waits until each node has claimed (and found nothing) after a pause, rather than for a guessed time.
 */
public abstract class PauseContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	/** Well under a one-minute poll interval, and generous for a busy machine. */
	private static final Duration QUICK = Duration.ofSeconds(5);

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Map<String, Integer> SERVED = Map.of("greet", 1, "welcome", 1);

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.handle("greet", Greeting.class, (greeting, context) -> null);
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@Test
	void aPausedQueueIsPassedOverByEveryClaimUntilResumedWhileOtherQueuesAreClaimed() {
		long waiting = fixture.queue().enqueue("greet", new Greeting("Ada", 1));
		long mail = fixture.queue().enqueue("greet", new Greeting("Bob", 1), EnqueueOptions.defaults().queue("mail"));

		assertThat(fixture.queue().pause("default")).isTrue();

		assertThat(claim("default")).isEmpty();
		assertThat(fixture.store().claims().nextDueWithin("default", SERVED, Duration.ofMinutes(1))).isEmpty();
		assertThat(claim("mail")).containsExactly(mail);
		assertThat(fixture.queue().resume("default")).isTrue();
		assertThat(fixture.store().claims().nextDueWithin("default", SERVED, Duration.ofMinutes(1))).isPresent();
		assertThat(claim("default")).containsExactly(waiting);
	}

	@Test
	void aPausedKindIsPassedOverInEveryQueueWhileTheOtherKindsOfItsQueueAreClaimed() {
		fixture.declareExternal("welcome");
		long welcome = fixture.queue().enqueue("welcome", new Greeting("Ada", 1));
		long welcomeMail = fixture.queue().enqueue("welcome", new Greeting("Bob", 1),
				EnqueueOptions.defaults().queue("mail"));
		long greet = fixture.queue().enqueue("greet", new Greeting("Cy", 1));

		assertThat(fixture.queue().pauseKind("welcome")).isTrue();

		assertThat(claim("mail")).isEmpty();
		assertThat(fixture.store().claims().nextDueWithin("mail", SERVED, Duration.ofMinutes(1))).isEmpty();
		assertThat(claim("default")).containsExactly(greet);
		assertThat(fixture.queue().pausedKinds()).containsOnlyKeys("welcome");
		assertThat(fixture.queue().resumeKind("welcome")).isTrue();
		assertThat(claim("default")).containsExactly(welcome);
		assertThat(claim("mail")).containsExactly(welcomeMail);
	}

	@Test
	void aPauseStopsTheClaimsOfEveryNodeAndAResumeRestartsThem() {
		AtomicInteger claimsOfA = new AtomicInteger();
		AtomicInteger claimsOfB = new AtomicInteger();
		fixture.startRuntime(counting(claimsOfA), QueueFixture.SETTINGS, new CountingListener());
		fixture.startRuntime(counting(claimsOfB), QueueFixture.SETTINGS, new CountingListener());

		assertThat(fixture.queue().pause("default")).isTrue();
		List<Long> ids = enqueue(20);

		awaitClaimsAfterNow(claimsOfA, claimsOfB);
		assertThat(ids).allSatisfy(this::isUntouched);
		assertThat(fixture.queue().resume("default")).isTrue();
		ids.forEach(id -> awaitState(id, JobState.succeeded));
	}

	@Test
	void jobsRunningWhenTheirQueueIsPausedFinishAndTheNextOnesWait() throws InterruptedException {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		fixture.handle("block", Greeting.class, (greeting, context) -> {
			started.countDown();
			return release.await(30, TimeUnit.SECONDS);
		});
		AtomicInteger claims = new AtomicInteger();
		fixture.startRuntime(counting(claims), QueueFixture.SETTINGS, new CountingListener());
		long running = fixture.queue().enqueue("block", new Greeting("Ada", 1));
		assertThat(started.await(20, TimeUnit.SECONDS)).isTrue();

		fixture.queue().pause("default");
		long next = fixture.queue().enqueue("greet", new Greeting("Bob", 1));
		release.countDown();

		awaitState(running, JobState.succeeded);
		awaitClaimsAfterNow(claims);
		isUntouched(next);
		fixture.queue().resume("default");
		awaitState(next, JobState.succeeded);
	}

	@Test
	void aPauseOutlivesTheRestartOfEveryNode() {
		fixture.startRuntime();
		fixture.queue().pause("default");
		fixture.close();

		JobQueue restarted = fixture.queue(QueueFixture.SETTINGS);
		AtomicInteger claims = new AtomicInteger();
		fixture.startRuntime(counting(claims), QueueFixture.SETTINGS, new CountingListener());
		long id = restarted.enqueue("greet", new Greeting("Ada", 1));

		assertThat(restarted.pausedQueues()).containsOnlyKeys("default");
		awaitClaimsAfterNow(claims);
		isUntouched(id);
		assertThat(restarted.resume("default")).isTrue();
		awaitState(id, JobState.succeeded);
	}

	@Test
	void aResumeWakesThisNodesPollerAtOnceRatherThanAtItsNextPoll() {
		RuntimeSettings slowPoll = QueueFixture.SETTINGS.toBuilder().pollInterval(Duration.ofMinutes(1)).build();
		AtomicInteger claims = new AtomicInteger();
		fixture.startRuntime(counting(claims), slowPoll, new CountingListener());
		await().atMost(WAIT).until(() -> claims.get() >= 1);
		fixture.queue().pause("default");
		int before = claims.get();
		long id = fixture.queue().enqueue("greet", new Greeting("Ada", 1));
		// The enqueue woke the poller: it claimed nothing, and sleeps for the poll interval.
		await().atMost(WAIT).until(() -> claims.get() > before);
		isUntouched(id);

		fixture.queue().resume("default");

		await().atMost(QUICK).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(JobState.succeeded));
	}

	@Test
	void aSecondPauseOrResumeChangesNothingAndThePauseKeepsItsFirstTime() {
		assertThat(fixture.queue().pause("default")).isTrue();
		Instant pausedAt = fixture.queue().pausedQueues().get("default");

		assertThat(fixture.queue().pause("default")).isFalse();
		assertThat(fixture.queue().pausedQueues()).containsExactlyEntriesOf(Map.of("default", pausedAt));
		assertThat(pausedAt).isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(60));
		assertThat(fixture.queue().resume("default")).isTrue();
		assertThat(fixture.queue().resume("default")).isFalse();
		assertThat(fixture.queue().pausedQueues()).isEmpty();
	}

	@Test
	void aNameThatIsNoQueueNameOrKindIsRefusedAndNothingIsWritten() {
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().pause("mail queue"))
			.withMessage("queue must match [A-Za-z0-9_.-]{1,100}, was 'mail queue'");
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().pause(null));
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().resume("x".repeat(101)));
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().pauseKind(" "))
			.withMessage("kind must not be blank");
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().resumeKind("a\u0000b"))
			.withMessage("kind must not hold the character U+0000");

		assertThat(pauseRows()).isZero();
	}

	@Test
	void aPauseOfAQueueOrKindUnknownHereIsRefusedAsATypoAndNothingIsWritten() {
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().pause("mial"))
			.withMessageContaining("queue 'mial' is unknown")
			.withMessageContaining("queues known here: default");
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().pauseKind("greeet"))
			.withMessageContaining("kind 'greeet' is unknown")
			.withMessageContaining("kinds: greet");

		assertThat(pauseRows()).isZero();
		assertThat(fixture.queue().resume("mial")).isFalse();
		assertThat(pauseRows()).isZero();
	}

	@Test
	void aQueueOnlyOtherNodesWorkIsKnownByItsJobsInTheDatabase() {
		fixture.queue().enqueue("greet", new Greeting("Ada", 1), EnqueueOptions.defaults().queue("reports"));

		assertThat(fixture.queue().pause("reports")).isTrue();
		assertThat(fixture.queue().pausedQueues()).containsOnlyKeys("reports");
	}

	@Test
	void aQueueThatStartsPausedIsPausedOnceAndARestartNeverUndoesItsResume() {
		RuntimeSettings startsPaused = QueueFixture.SETTINGS.toBuilder().initiallyPaused("default").build();
		AtomicInteger claims = new AtomicInteger();
		fixture.startRuntime(counting(claims), startsPaused, new CountingListener());
		long first = fixture.queue().enqueue("greet", new Greeting("Ada", 1));

		assertThat(fixture.queue().pausedQueues()).containsOnlyKeys("default");
		awaitClaimsAfterNow(claims);
		isUntouched(first);
		fixture.queue().resume("default");
		awaitState(first, JobState.succeeded);
		fixture.close();

		fixture.startRuntime(startsPaused, new CountingListener());
		long second = fixture.queue().enqueue("greet", new Greeting("Bob", 1));
		awaitState(second, JobState.succeeded);
		assertThat(fixture.queue().pausedQueues()).isEmpty();
	}

	private List<Long> claim(String queue) {
		return fixture.store().claims().claim(queue, SERVED, 10, "test", LEASE,
				false).stream().map(ClaimedJob::id).toList();
	}

	private List<Long> enqueue(int count) {
		return IntStream.range(0, count).mapToObj(i -> fixture.queue().enqueue("greet", new Greeting("n", i))).toList();
	}

	/** The database's store, its claims counted once they have answered. */
	private JobStore counting(AtomicInteger claims) {
		return InterceptedStore.around(fixture.store(), "claim", (args, proceed) -> {
			Object claimed = proceed.call();
			claims.incrementAndGet();
			return claimed;
		});
	}

	/**
	 * Waits until each node has answered two more claims: a poller claims one at a time, so the second began
	 * after this call, and saw everything committed before it.
	 */
	private static void awaitClaimsAfterNow(AtomicInteger... claimsPerNode) {
		for (AtomicInteger claims : claimsPerNode) {
			int now = claims.get();
			await().atMost(WAIT).until(() -> claims.get() >= now + 2);
		}
	}

	private void isUntouched(long id) {
		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.ready);
		assertThat(job.attempt()).isZero();
	}

	private void awaitState(long id, JobState state) {
		await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.state(id)).isEqualTo(state));
	}

	private long pauseRows() {
		return fixture.jdbc().sql("SELECT count(*) FROM jobqueue_pause").query(Long.class).single();
	}
}
