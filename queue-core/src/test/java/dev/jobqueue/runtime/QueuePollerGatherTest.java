package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.InterceptedStore;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.SqliteTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * After a claim that took all it asked for, the poller waits for half of its threads to be free, at most as long as
 * that claim took and never longer than the poll interval, before it claims again. Each claim here takes
 * {@link #CLAIM}, so the waits are long enough to watch; the handlers hold their threads until the test lets them
 * go.
 */
class QueuePollerGatherTest {

	private static final Duration CLAIM = Duration.ofSeconds(1);

	private final SqliteTestDatabase database = new SqliteTestDatabase();

	private final QueueFixture fixture = new QueueFixture(database);

	private final Map<Long, CountDownLatch> gates = new ConcurrentHashMap<>();

	private final BlockingQueue<Long> started = new LinkedBlockingQueue<>();

	/** What each claim asked for, in order. */
	private final List<Integer> limits = new CopyOnWriteArrayList<>();

	private JobStore slowClaims;

	@BeforeEach
	void eightHeldJobs() {
		fixture.handle("held", Long.class, (n, context) -> {
			started.add(n);
			gates.get(n).await();
			return null;
		});
		for (long n = 0; n < 8; n++) {
			gates.put(n, new CountDownLatch(1));
			fixture.queue().enqueue("held", n);
		}
		slowClaims = InterceptedStore.around(fixture.store(), "claim", (args, proceed) -> {
			limits.add((Integer) args[2]);
			try {
				Thread.sleep(CLAIM.toMillis());
			}
			catch (InterruptedException ex) {
				// The runtime's stop: the poller must still see the interrupt to end its loop.
				Thread.currentThread().interrupt();
			}
			return proceed.call();
		});
	}

	private void startRuntime(Duration pollInterval) {
		fixture.startRuntime(slowClaims, QueueFixture.SETTINGS.toBuilder()
			.queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, 4))
			.pollInterval(pollInterval)
			.build(), CountingListener.NONE);
	}

	@AfterEach
	void close() {
		gates.values().forEach(CountDownLatch::countDown);
		fixture.close();
		database.close();
	}

	@Test
	void aThreadFreedAfterAFullClaimWaitsForASecondSoThatOneClaimTakesBoth() throws InterruptedException {
		startRuntime(Duration.ofSeconds(2));

		releaseTwoOfTheFirstClaim(CLAIM.dividedBy(4));

		assertThat(limits).containsExactly(4, 2);
	}

	@Test
	void aThreadFreedAfterAFullClaimIsClaimedForOnceTheWaitIsOver() throws InterruptedException {
		startRuntime(Duration.ofSeconds(2));
		List<Long> first = takeStarted(4);

		release(first.get(0));

		assertThat(takeStarted(1)).hasSize(1);
		assertThat(limits).containsExactly(4, 1);
	}

	@Test
	void theWaitIsNeverLongerThanThePollInterval() throws InterruptedException {
		startRuntime(Duration.ofMillis(200));

		releaseTwoOfTheFirstClaim(CLAIM.multipliedBy(3).dividedBy(5));

		assertThat(limits).startsWith(4, 1);
	}

	/** Lets two jobs of the first claim finish, {@code apart} from each other, and waits for the two that follow. */
	private void releaseTwoOfTheFirstClaim(Duration apart) throws InterruptedException {
		List<Long> first = takeStarted(4);
		release(first.get(0));
		Thread.sleep(apart.toMillis());
		release(first.get(1));
		assertThat(takeStarted(2)).hasSize(2);
	}

	private void release(long job) {
		gates.get(job).countDown();
	}

	private List<Long> takeStarted(int count) throws InterruptedException {
		List<Long> taken = new CopyOnWriteArrayList<>();
		for (int i = 0; i < count; i++) {
			Long n = started.poll(10, TimeUnit.SECONDS);
			assertThat(n).as("job %d of %d started", i + 1, count).isNotNull();
			taken.add(n);
		}
		return taken;
	}
}
