package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.InterceptedStore;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * Several runtimes on one database: one of them, the holder of the maintenance lease, reaps for all; when it
 * stops or stops answering, another takes over within seconds. With the fixture's 5 s job lease the
 * maintenance lease is 1.7 s, asked for every 0.56 s.
 */
public abstract class MaintenanceNodeContractTest {

	/** Generous for a loaded machine; a released lease is taken within 0.56 s, an expired one within 2.3 s. */
	private static final Duration HANDOVER = Duration.ofSeconds(10);

	/** A queue no runtime here works: jobs of a dead worker wait there, reaped, untouched by the runtimes. */
	private static final String ELSEWHERE = "elsewhere";

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
	void ofThreeRuntimesOnlyTheMaintainerReapsAndWhenItStopsAnotherTakesOverAtOnce() {
		List<CountingListener> listeners = IntStream.range(0, 3).mapToObj(i -> new CountingListener()).toList();
		List<JobRuntime> runtimes = listeners.stream()
			.map(listener -> fixture.startRuntime(QueueFixture.SETTINGS, listener))
			.toList();
		JobRuntime first = awaitOneMaintainer(runtimes);
		CountingListener firstListener = listeners.get(runtimes.indexOf(first));
		assertThat(firstListener.maintaining()).as("told the listener").isTrue();

		expireClaimsOfADeadWorker(4);
		await().atMost(HANDOVER).until(() -> firstListener.reaped() == 4);
		assertThat(listeners).extracting(CountingListener::reaped).containsExactlyInAnyOrder(4, 0, 0);

		first.stop();
		assertThat(firstListener.maintaining()).as("told the listener at its stop").isFalse();
		List<JobRuntime> others = runtimes.stream().filter(runtime -> runtime != first).toList();
		JobRuntime second = awaitOneMaintainer(others);

		expireClaimsOfADeadWorker(3);
		CountingListener secondListener = listeners.get(runtimes.indexOf(second));
		await().atMost(HANDOVER).until(() -> secondListener.reaped() == 3);
		assertThat(listeners).extracting(CountingListener::reaped).containsExactlyInAnyOrder(4, 3, 0);
	}

	@Test
	void aMaintainerThatStopsAnsweringIsSucceededOnceItsLeaseExpiresAndStopsMaintainingItself() {
		AtomicBoolean cutOff = new AtomicBoolean();
		JobStore cuttable = InterceptedStore.around(fixture.store(), "holdMaintenance", (args, proceed) -> {
			if (cutOff.get()) {
				throw new DataAccessResourceFailureException("cut off from the database");
			}
			return proceed.call();
		});
		CountingListener firstListener = new CountingListener();
		JobRuntime first = fixture.startRuntime(cuttable, QueueFixture.SETTINGS, firstListener);
		assertThat(first.maintaining()).as("the first node, finding the lease free at its start").isTrue();
		CountingListener secondListener = new CountingListener();
		JobRuntime second = fixture.startRuntime(QueueFixture.SETTINGS, secondListener);
		assertThat(second.maintaining()).isFalse();

		cutOff.set(true);

		await().atMost(HANDOVER).until(second::maintaining);
		await().atMost(HANDOVER).until(() -> !first.maintaining() && !firstListener.maintaining());
		expireClaimsOfADeadWorker(2);
		await().atMost(HANDOVER).until(() -> secondListener.reaped() == 2);
		assertThat(firstListener.reaped()).isZero();
	}

	private static JobRuntime awaitOneMaintainer(List<JobRuntime> runtimes) {
		await().atMost(HANDOVER).until(() -> runtimes.stream().filter(JobRuntime::maintaining).count() == 1);
		return runtimes.stream().filter(JobRuntime::maintaining).findFirst().orElseThrow();
	}

	/** Claims {@code count} new jobs for a worker that never heartbeats, on a lease that expires at once. */
	private void expireClaimsOfADeadWorker(int count) {
		IntStream.range(0, count)
			.forEach(i -> fixture.queue().enqueue("greet", new Greeting("Ada", i), EnqueueOptions.defaults().queue(ELSEWHERE)));
		assertThat(fixture.store().claims().claim(ELSEWHERE, Map.of("greet", 1), count, "dead-worker", Duration.ofMillis(1),
				false))
			.hasSize(count);
	}
}
