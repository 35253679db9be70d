package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 11: transactional handlers that work longer than a lease before they write, beside a producer
 * (this JVM) enqueuing fast probes one by one. No writer may wait for them: no lease runs out, no job runs
 * twice, and no enqueue waits anywhere near as long as they work.
 */
abstract class LongTransactionalJobFaultTest extends FaultScenario {

	private static final int LONG_JOBS = 4;

	private static final Duration ENQUEUE_INTERVAL = Duration.ofMillis(50);

	/** Far below the long handlers' work: an enqueue that waited for one would take seconds. */
	private static final Duration ENQUEUE_BOUND = Duration.ofSeconds(2);

	@Test
	void longTransactionalHandlersStopNoWriterSoNothingIsReapedAndEnqueuesStayQuick() throws Exception {
		Duration works = database.lease().multipliedBy(3).dividedBy(2);
		try (WorkerFleet fleet = fleet()) {
			fleet.startAll("first", "second");
			enqueue(LONG_JOBS, "probe-tx", 1, i -> Probe.sleeping(works.toMillis()));
			await("the long handlers to start").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
				.until(() -> count("SELECT count(*) FROM jobqueue_job WHERE state = 'running'") == LONG_JOBS);

			int fast = (int) (works.toMillis() / ENQUEUE_INTERVAL.toMillis());
			Duration slowest = enqueueOneByOne(fast);
			awaitDrained(works.plusSeconds(90));

			assertThat(slowest).as("the slowest of %d enqueues beside the long handlers", fast).isLessThan(ENQUEUE_BOUND);
			Invariants.Report report = checkInvariants(fleet, "scenario 11 (long transactional handlers)",
					LONG_JOBS + fast, List.of());
			report.assertSucceeded(LONG_JOBS + fast);
			assertThat(report.claims()).as("claims, one per job").isEqualTo(LONG_JOBS + fast);
			assertThat(report.reaped()).isZero();
			assertThat(count("SELECT count(*) FROM fault_effect")).as("effects of the long handlers")
				.isEqualTo(LONG_JOBS);
		}
	}

	/** Enqueues fast probes at a steady pace; returns the slowest enqueue. */
	private Duration enqueueOneByOne(int count) throws InterruptedException {
		long slowest = 0;
		for (int i = 0; i < count; i++) {
			long start = System.nanoTime();
			queue.enqueue("probe", Probe.sleeping(0));
			slowest = Math.max(slowest, System.nanoTime() - start);
			// Paces the producer, as a test of latency under load needs; nothing here waits for a state.
			Thread.sleep(ENQUEUE_INTERVAL.toMillis());
		}
		return Duration.ofNanos(slowest);
	}
}
