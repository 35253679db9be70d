package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 17: two workers, one whose clock runs 10 minutes ahead of the database's and one 10 minutes behind
 * ({@link SkewedClock}), both declaring a schedule that fires every second. Fire times are decided on the
 * database's clock: no job enqueued before its fire time by the database's time, no fire time reported missed
 * while the workers run, each fire time enqueued once.
 *
 * <p>On PostgreSQL and MySQL only: SQLite reads the time of the process that calls it, so a skewed JVM skews its
 * database's clock with it, and the nodes of one SQLite file share one machine's clock anyway.
 */
abstract class SkewedClocksScheduleFaultTest extends FaultScenario {

	private static final Logger log = LoggerFactory.getLogger(SkewedClocksScheduleFaultTest.class);

	private static final String KIND = "tick";

	private static final Duration SKEW = Duration.ofMinutes(10);

	/**
	 * How early by the database's time a fire time may still be enqueued: a node reads the database's clock
	 * across a round trip, and its reading is off by at most half of one. A node firing on its own clock is ten
	 * minutes early.
	 */
	private static final Duration READING_ERROR = Duration.ofSeconds(1);

	@Test
	void nodesTenMinutesAheadAndBehindFireEachFireTimeOnceAndNoneEarlyByTheDatabasesClock() throws Exception {
		try (WorkerFleet fleet = fleet(name -> database.jdbcUrl(), Map.of("fault.tick-schedule", "true"))) {
			WorkerJvm ahead = fleet.start("ahead", Map.of(), SkewedClock.environment(SKEW));
			WorkerJvm behind = fleet.start("behind", Map.of(), SkewedClock.environment(SKEW.negated()));
			List<WorkerJvm> workers = List.of(ahead.awaitStarted(), behind.awaitStarted());
			Duration nearlySkew = SKEW.minusMinutes(1);
			assertThat(ahead.clockAtStart()).as("the clock of " + ahead).isAfter(Instant.now().plus(nearlySkew));
			assertThat(behind.clockAtStart()).as("the clock of " + behind).isBefore(Instant.now().minus(nearlySkew));

			await("ten fire times").atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> new ScheduleFires(database, KIND).all().size() >= 10);
			assertThat(workers).allSatisfy(worker -> assertThat(worker.log()).as("the log of " + worker)
				.doesNotContainPattern("missed \\d+ fire time"));
			for (WorkerJvm worker : workers) {
				worker.kill();
			}

			ScheduleFires fires = new ScheduleFires(database, KIND);
			assertThat(firedEarly(fires)).isEmpty();
			assertThat(fires.enqueuedMoreThanOnce()).isEmpty();
			assertThat(fires.skipped(Duration.ofSeconds(1))).isEmpty();
			log.info("scenario 17 (schedules on nodes 10 min ahead and behind): {} fire times, {} by the node ahead",
					fires.all().size(), firedBy(ahead));
		}
	}

	/** Fire times enqueued earlier than {@link #READING_ERROR} before them, by the audit's database time. */
	private List<String> firedEarly(ScheduleFires fires) {
		return fires.all().stream()
			.filter(fire -> database.jdbc()
				.sql("SELECT count(*) FROM fault_audit WHERE job_id = :id AND old_state IS NULL AND at < :earliest")
				.param("id", fire.jobId())
				.param("earliest", database.time(fire.at().minus(READING_ERROR)))
				.query(Long.class)
				.single() > 0)
			.map(fire -> "job " + fire.jobId() + " for " + fire.at() + " enqueued early")
			.toList();
	}

	private long firedBy(WorkerJvm worker) {
		return database.jdbc()
			.sql("""
					SELECT count(*) FROM fault_audit a JOIN jobqueue_job j ON j.id = a.job_id
					WHERE j.kind = :kind AND a.old_state IS NULL AND a.writer = :writer""")
			.param("kind", KIND)
			.param("writer", "fault-worker-" + worker.pid())
			.query(Long.class)
			.single();
	}
}
