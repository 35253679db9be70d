package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 5: SIGTERM to a worker with jobs in flight. Those that finish within the shutdown timeout
 * finish; the rest are released at once and another worker runs them without waiting for the lease.
 */
class PostgresGracefulShutdownFaultTest extends FaultScenario {

	private static final Duration LEASE = Duration.ofSeconds(30);

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}

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

	private List<Long> completedBy(List<Long> jobs) {
		return database.jdbc()
			.sql("""
					SELECT CAST(substring(writer FROM 'fault-worker-(\\d+)') AS bigint) FROM fault_audit
					WHERE job_id = ANY (CAST(:jobs AS bigint[])) AND new_state = 'succeeded'""")
			.param("jobs", jobs.toArray(Long[]::new))
			.query(Long.class)
			.list();
	}
}
