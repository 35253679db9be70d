package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 5: SIGTERM to a worker with jobs in flight. Those that finish within the shutdown timeout
 * finish; the rest are interrupted, and each whose handler exits is released at once, so another worker
 * runs it without waiting for the lease. A handler that ignores the interrupt is never released: its job
 * waits for its lease to expire once the process is gone, and that attempt counts.
 */
abstract class GracefulShutdownFaultTest extends FaultScenario {

	private static final Duration LEASE = Duration.ofSeconds(30);

	@Test
	void sigtermFinishesShortJobsAndReleasesLongOnesWithoutWaitingForTheirLease() throws Exception {
		try (WorkerFleet fleet = new WorkerFleet(database.jdbcUrl(),
				Map.of("jobqueue.lease-duration", "30s", "jobqueue.heartbeat-interval", "5s",
						"jobqueue.shutdown-timeout", "2s", "jobqueue.queues.default.concurrency", "16"))) {
			// The taker starts first and waits frozen while the queue is empty: a JVM starting between the
			// enqueue and the SIGTERM would eat into the long jobs' time, and they could end before it.
			WorkerJvm taker = fleet.start("taker").awaitStarted();
			freezeHoldingNothing(taker);
			WorkerJvm stopping = fleet.start("stopping").awaitStarted();
			List<Long> shortJobs = enqueue(8, "probe", 5, i -> Probe.sleeping(1_000));
			List<Long> longJobs = enqueue(8, "probe", 5, i -> Probe.sleeping(6_000));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> count("SELECT count(*) FROM jobqueue_job WHERE state = 'running'") == 16);
			taker.resume();

			Duration exit = stopping.terminate();
			long stoppedAt = System.nanoTime();
			awaitDrained(LEASE.dividedBy(2));
			Duration drained = Duration.ofNanos(System.nanoTime() - stoppedAt);

			assertThat(exit).as("SIGTERM to exit, with a 2 s shutdown timeout").isLessThan(Duration.ofSeconds(10));
			assertThat(drained).as("released jobs ran well within the 30 s lease").isLessThan(LEASE.dividedBy(2));
			Invariants.Report report = checkInvariants(fleet, "scenario 5 (SIGTERM with jobs in flight)", 16,
					List.of(stopping.pid()));
			report.assertSucceeded(16);
			assertThat(report.reaped()).as("jobs that waited for their lease to expire").isZero();
			assertThat(report.released()).as("long jobs released at shutdown").isEqualTo(8);
			assertThat(completedBy(shortJobs)).as("short jobs finished by the stopping worker")
				.containsOnly(stopping.pid());
			assertThat(completedBy(longJobs)).as("long jobs finished by the other worker").containsOnly(taker.pid());
		}
	}

	@Test
	void sigtermNeverHandsOverAJobWhoseHandlerIgnoresTheInterruptNorGivesItsAttemptBack() throws Exception {
		try (WorkerFleet fleet = new WorkerFleet(database.jdbcUrl(),
				Map.of("jobqueue.lease-duration", "6s", "jobqueue.heartbeat-interval", "1s",
						"jobqueue.shutdown-timeout", "1s", "jobqueue.shutdown-grace", "1s",
						"jobqueue.queues.default.concurrency", "4"))) {
			WorkerJvm taker = fleet.start("taker").awaitStarted();
			freezeHoldingNothing(taker);
			WorkerJvm stopping = fleet.start("stopping").awaitStarted();
			List<Long> jobs = enqueue(4, "probe", 5, i -> Probe.sleeping(8_000).ignoringInterrupts().recorded());
			await().atMost(Duration.ofSeconds(10)).until(() -> count("SELECT count(*) FROM fault_execution") == 4);
			taker.resume();

			stopping.terminate();
			Instant exited = Instant.now();
			awaitDrained(Duration.ofSeconds(60));

			Invariants.Report report = checkInvariants(fleet,
					"scenario 5b (SIGTERM, handlers that ignore the interrupt)", 4, List.of(stopping.pid()));
			report.assertSucceeded(4);
			assertThat(report.released()).as("jobs released while their handler still ran").isZero();
			assertThat(report.reaped()).as("jobs left to their lease once the process was gone").isEqualTo(4);
			assertThat(attempts(jobs)).as("attempts of the succeeded jobs: none given back").containsOnly(2);
			assertThat(database.jdbc()
				.sql("SELECT count(*) FROM fault_execution WHERE pid = :taker AND started_at < :exited")
				.param("taker", taker.pid())
				.param("exited", database.time(exited))
				.query(Long.class)
				.single()).as("executions on the taker that began before the stopping worker had exited").isZero();
		}
	}

	private List<Integer> attempts(List<Long> jobs) {
		return database.jdbc()
			.sql("SELECT attempt FROM jobqueue_job WHERE id IN (:jobs)")
			.param("jobs", jobs)
			.query(Integer.class)
			.list();
	}

	/** The process ids of the writers of the jobs' completions. */
	private List<Long> completedBy(List<Long> jobs) {
		return database.jdbc()
			.sql("SELECT writer FROM fault_audit WHERE job_id IN (:jobs) AND new_state = 'succeeded'")
			.param("jobs", jobs)
			.query(String.class)
			.list()
			.stream()
			.map(writer -> Long.parseLong(writer.substring(writer.lastIndexOf('-') + 1)))
			.toList();
	}
}
