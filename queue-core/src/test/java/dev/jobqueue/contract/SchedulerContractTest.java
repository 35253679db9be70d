package dev.jobqueue.contract;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobListener;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.Schedule;
import dev.jobqueue.Schedule.Misfire;
import dev.jobqueue.core.JobQueues;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.ScheduleDefinition;
import dev.jobqueue.runtime.ScheduledJob;
import dev.jobqueue.runtime.ScheduledJobs;
import dev.jobqueue.runtime.Scheduler;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestClock;
import dev.jobqueue.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The scheduler's passes on a simulated clock: misfire policies, daylight-saving days, nodes that were
 * down, and nodes of two versions of the application; and schedules declared on the {@link JobQueues}
 * builder. Between passes every job enqueued is marked
 * finished, as workers would: that frees its unique key, so that a fire time enqueued twice would show as
 * two rows rather than be absorbed by the key.
 */
public abstract class SchedulerContractTest {

	private static final Schedule HOURLY = Schedule.cron("0 0 * * * *").kind("report");

	protected abstract TestDatabase database();

	@BeforeEach
	void emptyTheQueue() {
		database().reset();
	}

	@ParameterizedTest(name = "{0} enqueues {1} catch-up job(s)")
	@CsvSource({ "SKIP, 0", "ONCE, 1", "ALL, 5" })
	void aClusterDownAcrossFiveFireTimesCatchesUpAsItsMisfirePolicySays(Misfire misfire, int catchUps) {
		TestClock clock = new TestClock("2026-01-01T00:30:00Z");
		Scheduler node = node(clock, Map.of("hourly", HOURLY.misfire(misfire)));
		node.runOnce();
		clock.set("2026-01-01T01:00:02Z");
		node.runOnce();

		clock.set("2026-01-01T06:30:00Z");
		node.runOnce();

		List<String> expected = switch (misfire) {
			case SKIP -> List.of();
			case ONCE -> List.of("2026-01-01T06:00:00Z");
			case ALL -> List.of("2026-01-01T02:00:00Z", "2026-01-01T03:00:00Z", "2026-01-01T04:00:00Z",
					"2026-01-01T05:00:00Z", "2026-01-01T06:00:00Z");
		};
		assertThat(expected).hasSize(catchUps);
		assertThat(fired("hourly")).containsExactlyElementsOf(concat("2026-01-01T01:00:00Z", expected));
		clock.set("2026-01-01T07:00:00Z");
		node.runOnce();
		assertThat(fired("hourly")).endsWith("2026-01-01T07:00:00Z").hasSize(2 + catchUps);
	}

	@Test
	void aFireTimeFoundLateButWithinTheMisfireThresholdStillFires() {
		TestClock clock = new TestClock("2026-01-01T00:59:00Z");
		Scheduler node = node(clock, Map.of("hourly", HOURLY));
		node.runOnce();
		clock.set("2026-01-01T01:00:59Z");

		node.runOnce();

		assertThat(fired("hourly")).containsExactly("2026-01-01T01:00:00Z");
	}

	@ParameterizedTest(name = "{0} fires {1} job(s) after the outage")
	@CsvSource({ "SKIP, 1", "ONCE, 1", "ALL, 18" })
	void aFrequentScheduleBackFromAnOutageFiresOnceUnlessItsPolicyIsAll(Misfire misfire, int fires) {
		TestClock clock = new TestClock("2026-01-01T00:00:01Z");
		Scheduler node = node(clock, Map.of("often", Schedule.every(Duration.ofSeconds(5)).kind("report")
			.misfire(misfire)));
		node.runOnce();
		clock.set("2026-01-01T00:01:33Z");

		node.runOnce();

		assertThat(fired("often")).hasSize(fires).last().isEqualTo("2026-01-01T00:01:30Z");
	}

	@Test
	void aNodeThatWasDownDoesNotFireAgainWhatAnotherNodeFired() {
		TestClock clock = new TestClock("2026-01-01T00:30:00Z");
		Scheduler first = node(clock, Map.of("hourly", HOURLY));
		Scheduler second = node(clock, Map.of("hourly", HOURLY));
		first.runOnce();
		second.runOnce();
		clock.set("2026-01-01T01:00:01Z");
		first.runOnce();
		finishAll();

		second.runOnce();
		clock.set("2026-01-01T01:00:40Z");
		second.runOnce();

		assertThat(fired("hourly")).containsExactly("2026-01-01T01:00:00Z");
	}

	@Test
	void aScheduleAtHalfPastTwoInParisSkipsTheSpringForwardDayAndFiresOnceOnTheFallBackDay() {
		// 02:30 does not exist on 29 March (02:00 CET is 03:00 CEST), and exists twice on 25 October (at +02:00,
		// then again at +01:00): by default the repeated local time fires once, at its first occurrence. Between the
		// two weeks the schedule missed fire times while nothing ran, which the default policy skips.
		assertThat(firedAroundTheDaylightSavingDays(Schedule.FallBack.ONCE)).containsExactly("2026-03-28T01:30:00Z",
				"2026-03-30T00:30:00Z", "2026-03-31T00:30:00Z", "2026-10-24T00:30:00Z", "2026-10-25T00:30:00Z",
				"2026-10-26T01:30:00Z");
	}

	@Test
	void aScheduleThatAsksForItFiresTwiceOnTheFallBackDay() {
		assertThat(firedAroundTheDaylightSavingDays(Schedule.FallBack.TWICE)).containsSubsequence(
				"2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z", "2026-10-26T01:30:00Z");
	}

	private List<String> firedAroundTheDaylightSavingDays(Schedule.FallBack fallBack) {
		// Passes every ten minutes find each fire time up to ten minutes late: on time for this threshold.
		Schedule halfPastTwo = Schedule.cron("0 30 2 * * *", ZoneId.of("Europe/Paris"))
			.kind("report")
			.misfireThreshold(Duration.ofMinutes(15))
			.fallBack(fallBack);
		TestClock clock = new TestClock("2026-03-27T12:00:00Z");
		Scheduler node = node(clock, Map.of("dst", halfPastTwo));
		passEveryTenMinutesUntil(node, clock, "2026-03-31T12:00:00Z");
		clock.set("2026-10-23T12:00:00Z");
		passEveryTenMinutesUntil(node, clock, "2026-10-26T12:00:00Z");
		return fired("dst");
	}

	@Test
	void nodesOfTwoVersionsInARollingDeployNeverFireAnInstantTwiceAndTheRemovedScheduleStops() {
		TestClock clock = new TestClock("2026-01-01T00:00:30Z");
		Schedule everyMinute = Schedule.every(Duration.ofMinutes(1)).kind("report");
		Scheduler old = node(clock, Map.of("kept", everyMinute, "changed", everyMinute, "removed", everyMinute));
		passEvery15SecondsUntil(old, null, clock, "2026-01-01T00:02:30Z");
		Scheduler current = node(clock, Map.of("kept", everyMinute,
				"changed", Schedule.every(Duration.ofMinutes(2)).kind("report"), "added", everyMinute));

		passEvery15SecondsUntil(old, current, clock, "2026-01-01T00:07:30Z");
		passEvery15SecondsUntil(null, current, clock, "2026-01-01T00:10:30Z");

		assertThat(duplicateKeys()).isEmpty();
		assertThat(fired("kept")).hasSize(10).doesNotHaveDuplicates();
		assertThat(fired("changed")).containsExactly("2026-01-01T00:01:00Z", "2026-01-01T00:02:00Z",
				"2026-01-01T00:04:00Z", "2026-01-01T00:06:00Z", "2026-01-01T00:08:00Z", "2026-01-01T00:10:00Z");
		assertThat(fired("removed")).hasSize(7).last().isEqualTo("2026-01-01T00:07:00Z");
		assertThat(fired("added")).hasSize(8).first().isEqualTo("2026-01-01T00:03:00Z");
	}

	@Test
	void aScheduleDisabledOnTheNodeThatStartedLastStopsOnEveryNode() {
		TestClock clock = new TestClock("2026-01-01T00:30:00Z");
		Scheduler old = node(clock, Map.of("hourly", HOURLY));
		old.runOnce();
		Scheduler current = node(clock, Map.of("hourly", HOURLY.enabled(false)));
		current.runOnce();

		for (int hour = 1; hour <= 3; hour++) {
			clock.set("2026-01-01T0" + hour + ":00:05Z");
			passBoth(old, current);
		}

		assertThat(fired("hourly")).isEmpty();
		assertThat(database().store().schedules().schedules()).singleElement()
			.satisfies(row -> assertThat(row.nextFireAt()).isNull());
	}

	@Test
	void aScheduleThatNoNodeOfItsTimingFiresAnyMoreIsTakenOverByTheOtherTiming() {
		TestClock clock = new TestClock("2026-01-01T00:30:00Z");
		Scheduler current = node(clock, Map.of("hourly", HOURLY));
		current.runOnce();
		Scheduler restartedOld = node(clock, Map.of("hourly", Schedule.cron("0 30 * * * *").kind("report")));
		restartedOld.runOnce();
		clock.set("2026-01-01T01:00:05Z");
		current.runOnce();

		clock.set("2026-01-01T01:32:00Z");
		current.runOnce();
		clock.set("2026-01-01T02:00:05Z");
		current.runOnce();

		assertThat(fired("hourly")).containsExactly("2026-01-01T02:00:00Z");
	}

	@Test
	void aScheduleOnTheJobQueuesBuilderRunsItsJobs() {
		List<String> ran = new CopyOnWriteArrayList<>();
		try (JobQueues queues = JobQueues.builder(database().dataSource())
			.handler("greet", Greeting.class, (greeting, context) -> ran.add(greeting.name()))
			.schedule("greeting", Schedule.every(Duration.ofSeconds(1)).kind("greet").payload(new Greeting("Ada", 1)))
			.settings(settings -> settings.pollInterval(Duration.ofMillis(100)))
			.build()) {
			queues.start();

			await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(ran).contains("Ada"));
		}
	}

	@Test
	void aScheduleOnTheBuilderForAKindNoHandlerServesIsRefusedAtBuild() {
		JobQueues.Builder builder = JobQueues.builder(database().dataSource())
			.handler("greet", Greeting.class, (greeting, context) -> null)
			.schedule("greeting", Schedule.every(Duration.ofHours(1)).kind("gret"));

		assertThatIllegalStateException().isThrownBy(builder::build)
			.withMessage("Schedule 'greeting' (JobQueues.Builder.schedule) names kind 'gret', which no handler here "
					+ "serves (kinds: greet); declare kinds that other applications handle as external kinds");
	}

	private void passBoth(Scheduler old, Scheduler current) {
		if (old != null) {
			old.runOnce();
		}
		if (current != null) {
			current.runOnce();
		}
		finishAll();
	}

	private void passEvery15SecondsUntil(Scheduler old, Scheduler current, TestClock clock, String end) {
		while (clock.instant().isBefore(Instant.parse(end))) {
			passBoth(old, current);
			clock.advance(Duration.ofSeconds(15));
		}
	}

	@Test
	void aNodeWhoseClockRunsTenMinutesAheadFiresNothingBeforeItIsDueOnTheDatabasesClock() {
		Map<String, Schedule> schedules = Map.of("five",
				Schedule.cron("0 */5 * * * *").kind("report").misfire(Misfire.ALL));
		onDatabaseClock(Duration.ZERO, schedules).runOnce();

		onDatabaseClock(Duration.ofMinutes(10), schedules).runOnce();

		assertThat(fired("five")).isEmpty();
	}

	@Test
	void aNodeWhoseClockRunsTenMinutesBehindFiresWhatIsDueOnTheDatabasesClock() throws InterruptedException {
		Map<String, Schedule> schedules = Map.of("second", Schedule.every(Duration.ofSeconds(1)).kind("report"));
		onDatabaseClock(Duration.ZERO, schedules).runOnce();
		Thread.sleep(1_100);

		onDatabaseClock(Duration.ofMinutes(-10), schedules).runOnce();

		assertThat(fired("second")).hasSize(1);
	}

	/** A node as the runtime makes it, on a machine whose clock is {@code skew} off. */
	private Scheduler onDatabaseClock(Duration skew, Map<String, Schedule> schedules) {
		return Scheduler.onDatabaseClock(database().store(), resolve(schedules),
				Clock.offset(Clock.systemUTC(), skew), JobListener.NONE, queue -> {
				}, Scheduler.KeySlots.NONE, QueueFixture.JSON);
	}

	private void passEveryTenMinutesUntil(Scheduler node, TestClock clock, String end) {
		while (clock.instant().isBefore(Instant.parse(end))) {
			node.runOnce();
			finishAll();
			clock.advance(Duration.ofMinutes(10));
		}
	}

	private Scheduler node(TestClock clock, Map<String, Schedule> schedules) {
		return new Scheduler(database().store().schedules(), resolve(schedules), clock, JobListener.NONE, queue -> {
		}, Scheduler.KeySlots.NONE, QueueFixture.JSON);
	}

	private static List<ScheduledJob> resolve(Map<String, Schedule> schedules) {
		HandlerRegistry registry = new HandlerRegistry();
		registry.declareExternal("report");
		schedules.forEach((name, schedule) -> registry.registerSchedule(new ScheduleDefinition(name, schedule,
				"test schedule " + name)));
		return ScheduledJobs.resolve(registry, QueueFixture.JSON, RetryPolicy.DEFAULT);
	}

	/** The fire times of {@code schedule}'s jobs, read from their unique keys, in order. */
	private List<String> fired(String schedule) {
		String prefix = ScheduledJob.KEY_PREFIX + schedule + "@";
		return jdbc().sql("SELECT unique_key FROM jobqueue_job WHERE unique_key LIKE :prefix ORDER BY unique_key")
			.param("prefix", prefix + "%")
			.query(String.class)
			.list()
			.stream()
			.map(key -> key.substring(prefix.length()))
			.toList();
	}

	private List<String> duplicateKeys() {
		return jdbc().sql("SELECT unique_key FROM jobqueue_job GROUP BY unique_key HAVING count(*) > 1")
			.query(String.class)
			.list();
	}

	/** As workers would: the keys of finished jobs are free again. */
	private void finishAll() {
		jdbc().sql("UPDATE jobqueue_job SET state = 'succeeded', finished_at = created_at WHERE state = 'ready'")
			.update();
	}

	private JdbcClient jdbc() {
		return JdbcClient.create(database().dataSource());
	}

	private static List<String> concat(String first, List<String> rest) {
		return Stream.concat(Stream.of(first), rest.stream()).toList();
	}
}
