package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.FinishedMinute;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.PauseScope;
import dev.jobqueue.support.TestDatabase;

/**
 * The jobs finished per queue and minute, the console's throughput and failures; and the wait of a queue's oldest
 * due job, the SLO signal of the queue-health gauge: measured from its due time on
 * the database's clock, over every priority, paused queues and kinds included, running and future jobs not.
 * {@link dev.jobqueue.store.TestHooks#bringReadyForward} stands in for the time a job waits.
 */
public abstract class TelemetryContractTest {

	/** More than any test takes between its enqueue and its read, however busy the machine. */
	private static final Duration SLACK = Duration.ofMinutes(1);

	private JobStore store;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		database().reset();
		store = database().store();
	}

	@Test
	void aQueueWithoutReadyJobsHasWaitedForNothing() {
		assertThat(store.telemetry().oldestReadyAge("mail")).isZero();
	}

	@Test
	void aJobDueLaterHasNotStartedWaiting() {
		store.enqueues().enqueue(job("mail", 5, Duration.ofHours(1)));

		assertThat(store.telemetry().oldestReadyAge("mail")).isZero();
	}

	@Test
	void theWaitIsThatOfTheJobDueFirstWhateverItsPriority() {
		store.enqueues().enqueue(job("mail", 9, Duration.ZERO));
		database().testHooks().bringReadyForward(Duration.ofMinutes(30));
		store.enqueues().enqueue(job("mail", 0, Duration.ZERO));

		assertThat(store.telemetry().oldestReadyAge("mail")).isBetween(Duration.ofMinutes(30), Duration.ofMinutes(30).plus(SLACK));
	}

	@Test
	void theJobWhoseWaitIsShownIsTheOneDueFirstWhateverItsPriorityAndNoneWithoutReadyJobs() {
		assertThat(store.telemetry().oldestReadyJob("mail")).isEmpty();
		long first = store.enqueues().enqueue(job("mail", 9, Duration.ZERO)).id();
		database().testHooks().bringReadyForward(Duration.ofMinutes(30));
		store.enqueues().enqueue(job("mail", 0, Duration.ZERO));
		store.enqueues().enqueue(job("reports", 5, Duration.ZERO));

		assertThat(store.telemetry().oldestReadyJob("mail")).contains(first);
	}

	@Test
	void eachQueueHasItsOwnWait() {
		store.enqueues().enqueue(job("mail", 5, Duration.ZERO));
		database().testHooks().bringReadyForward(Duration.ofMinutes(10));
		store.enqueues().enqueue(job("reports", 5, Duration.ZERO));

		assertThat(store.telemetry().oldestReadyAge("mail")).isGreaterThanOrEqualTo(Duration.ofMinutes(10));
		assertThat(store.telemetry().oldestReadyAge("reports")).isLessThan(SLACK);
	}

	@Test
	void aPausedQueueKeepsWaitingAndSaysSo() {
		store.enqueues().enqueue(job("mail", 5, Duration.ZERO));
		store.pauses().pause(PauseScope.queue, "mail");
		database().testHooks().bringReadyForward(Duration.ofMinutes(10));

		assertThat(store.telemetry().oldestReadyAge("mail")).isGreaterThanOrEqualTo(Duration.ofMinutes(10));
	}

	@Test
	void aClaimedJobWaitsNoMore() {
		store.enqueues().enqueue(job("mail", 5, Duration.ZERO));
		database().testHooks().bringReadyForward(Duration.ofMinutes(10));

		assertThat(store.claims().claim("mail", Map.of("greet", 1), 1, "node", Duration.ofMinutes(1),
				false)).hasSize(1);
		assertThat(store.telemetry().oldestReadyAge("mail")).isZero();
	}

	@Test
	void theFinishedJobsAreCountedPerQueueByHowTheyFinished() {
		store.enqueues().enqueueAll(List.of(job("mail", 5, Duration.ZERO), job("mail", 5, Duration.ZERO),
				job("mail", 5, Duration.ZERO)));
		long unstarted = store.enqueues().enqueue(job("reports", 5, Duration.ZERO)).id();
		store.enqueues().enqueue(job("reports", 5, Duration.ZERO));
		List<ClaimedJob> claimed = store.claims().claim("mail", Map.of("greet", 1), 3, "node", Duration.ofMinutes(1),
				false);
		store.outcomes().complete(claimed.get(0).lease(), null);
		store.outcomes().complete(claimed.get(1).lease(), null);
		store.outcomes().fail(claimed.get(2).lease(), "boom");
		store.writes().cancel(unstarted);

		List<FinishedMinute> minutes = store.telemetry().finishedPerMinute(5);

		// Summed over the queue's minutes: a minute may turn between two of the jobs above.
		Map<String, List<Long>> byQueue = minutes.stream().collect(Collectors.groupingBy(FinishedMinute::queue,
				Collectors.collectingAndThen(Collectors.toList(), rows -> List.of(
						rows.stream().mapToLong(FinishedMinute::succeeded).sum(),
						rows.stream().mapToLong(FinishedMinute::cancelled).sum(),
						rows.stream().mapToLong(FinishedMinute::dead).sum()))));
		assertThat(byQueue).isEqualTo(Map.of("mail", List.of(2L, 0L, 1L), "reports", List.of(0L, 1L, 0L)));
		assertThat(minutes).allSatisfy(row -> assertThat(row.minute())
			.isBetween(store.explain().now().minus(Duration.ofMinutes(5)), store.explain().now())
			.satisfies(minute -> assertThat(minute.toEpochMilli() % 60_000).isZero()));
	}

	@Test
	void aNumberOfMinutesOutsideOneToAnHourIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> store.telemetry().finishedPerMinute(0))
			.withMessage("minutes must be between 1 and 60, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> store.telemetry().finishedPerMinute(61));
	}

	private static NewJob job(String queue, int priority, Duration delay) {
		return new NewJob(queue, "greet", "{}", 1, priority, null, delay, 3, null, null);
	}
}
