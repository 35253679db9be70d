package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 2: the database goes away mid-drain (every connection of the workers cut, new ones refused)
 * and comes back. The workers reconnect by themselves; nothing is lost, nothing stays stuck, and
 * transactional effects still happen exactly once.
 */
class PostgresDatabaseOutageFaultTest extends FaultScenario {
	private static final int JOBS = LONG ? 20_000 : 4_000;

	private static final Duration OUTAGE = Duration.ofSeconds(LONG ? 30 : 10);

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}

	@Test
	void workersRideOutATenSecondOutageLosingNothingAndLeavingNothingStuck() throws Exception {
		enqueue(JOBS / 2, "probe", 5, i -> Probe.sleeping(i % 50));
		enqueue(JOBS / 2, "probe-tx", 5, i -> Probe.sleeping(i % 50));
		URI server = URI.create(FaultScenarioUrls.withoutPrefix(database.jdbcUrl()));
		try (TcpProxy proxy = new TcpProxy(server.getHost(), server.getPort());
				WorkerFleet fleet = new WorkerFleet(FaultScenarioUrls.throughPort(database.jdbcUrl(),
						proxy.port()), Map.of("jobqueue.lease-duration", "15s", "jobqueue.heartbeat-interval", "1s"))) {
			List<WorkerJvm> workers = fleet.startAll("a", "b");
			await().atMost(Duration.ofMinutes(1)).until(() -> finished() >= JOBS / 4);

			proxy.cut();
			// Writes the database received before the cut commit within moments; count from after them.
			Thread.sleep(1_000);
			long cutAt = finished();
			Thread.sleep(OUTAGE.toMillis() - 1_000);
			long duringOutage = finished() - cutAt;
			proxy.restore();

			awaitDrained(Duration.ofMinutes(2));
			Invariants.Report report = checkInvariants(fleet,
					"scenario 2 (database gone for " + OUTAGE.toSeconds() + " s)", JOBS,
					workers.stream().map(WorkerJvm::pid).toList());
			report.assertSucceeded(JOBS);
			assertThat(duringOutage).as("jobs finished while the database was gone").isZero();
			assertThat(count("SELECT count(*) FROM fault_effect")).as("effects of transactional jobs").isEqualTo(JOBS / 2);
			assertThat(count("SELECT count(DISTINCT job_id) FROM fault_effect")).isEqualTo(JOBS / 2);
			assertThat(workers).allMatch(WorkerJvm::isAlive);
		}
	}
}
