package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.JobState;
import dev.jobqueue.Schedule;
import dev.jobqueue.ScheduleStatus;
import dev.jobqueue.Schedules;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.ScheduleDefinition;
import dev.jobqueue.runtime.ScheduledJob;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * Schedules added, replaced, paused, resumed, triggered and removed while nodes run, through
 * {@code JobQueue.schedules()}: two nodes that declare none fire an added one once per fire time, and each change
 * holds for both from their next pass. Workers run the jobs at once, which frees each job's unique key, so a fire time
 * enqueued twice would show as two rows.
 */
public abstract class RuntimeSchedulesContractTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	/** Never within a test's seconds: a schedule that only a trigger makes run. */
	private static final Schedule YEARLY = Schedule.cron("0 0 0 1 1 *").kind("tick").payload(new Greeting("y", 1));

	private static final Schedule EVERY_SECOND = Schedule.every(Duration.ofSeconds(1)).kind("tick")
		.payload(new Greeting("s", 1));

	private final List<Greeting> ran = new CopyOnWriteArrayList<>();

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		fixture.handle("tick", Greeting.class, (greeting, context) -> {
			ran.add(greeting);
			return null;
		});
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	private Schedules schedules() {
		return fixture.queue().schedules();
	}

	@Test
	void aScheduleAddedAtRuntimeFiresOnNodesThatDoNotDeclareItOncePerFireTime() {
		fixture.startRuntime();
		fixture.startRuntime();

		assertThat(schedules().put("ticker", EVERY_SECOND)).isTrue();

		await().atMost(WAIT).until(() -> succeeded("ticker") >= 3);
		assertThat(duplicateKeys()).isEmpty();
		List<Instant> fired = fireTimes("ticker");
		for (int i = 1; i < fired.size(); i++) {
			assertThat(fired.get(i)).isEqualTo(fired.get(i - 1).plusSeconds(1));
		}
		assertThat(ran).contains(new Greeting("s", 1));
		assertThat(schedules().list()).singleElement().satisfies(status -> {
			assertThat(status.name()).isEqualTo("ticker");
			assertThat(status.timing()).isEqualTo("every PT1S");
			assertThat(status.kind()).isEqualTo("tick");
			assertThat(status.added()).isTrue();
			assertThat(status.paused()).isFalse();
		});
	}

	@Test
	void aReplacementTakesOverFromTheNextPassAndKeepsTheLastFireTime() {
		fixture.startRuntime();
		schedules().put("ticker", EVERY_SECOND);
		await().atMost(WAIT).until(() -> succeeded("ticker") >= 1);

		assertThat(schedules().put("ticker", YEARLY)).isFalse();

		ScheduleStatus status = schedules().list().get(0);
		assertThat(status.timing()).isEqualTo("cron 0 0 0 1 1 * UTC");
		assertThat(status.lastFireAt()).isNotNull();
		assertThat(status.nextFireAt()).isAfter(Instant.now().plus(Duration.ofDays(1)));
		long jobs = jobs("ticker");
		await().during(Duration.ofMillis(2_500)).atMost(WAIT).until(() -> jobs("ticker") == jobs);
	}

	@Test
	void aPausedScheduleFiresOnNoNodeAndAResumedOneGoesOnFromNowWithoutCatchingUp() throws Exception {
		fixture.startRuntime();
		fixture.startRuntime();
		schedules().put("ticker", EVERY_SECOND.misfire(Schedule.Misfire.ALL));
		await().atMost(WAIT).until(() -> succeeded("ticker") >= 1);

		assertThat(schedules().pause("ticker")).isTrue();
		assertThat(schedules().pause("ticker")).isFalse();
		long jobs = jobs("ticker");
		Instant pausedAt = schedules().list().get(0).pausedAt();
		assertThat(pausedAt).isNotNull();
		Thread.sleep(2_500);
		assertThat(jobs("ticker")).isEqualTo(jobs);

		Instant resumedAt = fixture.store().explain().now();
		assertThat(schedules().resume("ticker")).isTrue();
		assertThat(schedules().resume("ticker")).isFalse();

		await().atMost(WAIT).until(() -> jobs("ticker") > jobs);
		assertThat(fireTimes("ticker")).noneMatch(time -> time.isAfter(pausedAt) && time.isBefore(resumedAt));
		assertThat(duplicateKeys()).isEmpty();
	}

	@Test
	void aScheduleDeclaredInCodeIsPausedAndResumedForEveryNode() {
		fixture.handlers().registerSchedule(new ScheduleDefinition("declared", EVERY_SECOND, "test declaration"));
		fixture.startRuntime();
		fixture.startRuntime();
		await().atMost(WAIT).until(() -> succeeded("declared") >= 1);

		assertThat(schedules().pause("declared")).isTrue();

		long jobs = jobs("declared");
		await().during(Duration.ofMillis(2_500)).atMost(WAIT).until(() -> jobs("declared") == jobs);
		assertThat(schedules().resume("declared")).isTrue();
		await().atMost(WAIT).until(() -> jobs("declared") > jobs);
		assertThat(duplicateKeys()).isEmpty();
	}

	@Test
	void aTriggerEnqueuesTheJobNowPausedOrNotAndTheScheduleGoesOn() {
		fixture.handlers().registerSchedule(new ScheduleDefinition("declared", YEARLY.payload(new Greeting("d", 2)),
				"test declaration"));
		fixture.startRuntime();
		schedules().put("yearly", YEARLY);
		schedules().pause("yearly");
		await().atMost(WAIT).until(() -> schedules().list().size() == 2);

		long added = schedules().trigger("yearly");
		long declared = schedules().trigger("declared");

		await().atMost(WAIT).until(() -> fixture.state(added) == JobState.succeeded
				&& fixture.state(declared) == JobState.succeeded);
		assertThat(ran).containsExactlyInAnyOrder(new Greeting("y", 1), new Greeting("d", 2));
		assertThat(fixture.job(added).uniqueKey()).startsWith(ScheduledJob.KEY_PREFIX + "yearly@").endsWith(" now");
		assertThat(schedules().list()).allSatisfy(status -> assertThat(status.lastFireAt()).isNull());
		assertThat(schedules().list()).filteredOn(ScheduleStatus::added).singleElement()
			.satisfies(status -> assertThat(status.paused()).isTrue());
	}

	@Test
	void aRemovedScheduleFiresNoMore() {
		fixture.startRuntime();
		schedules().put("ticker", EVERY_SECOND);
		await().atMost(WAIT).until(() -> succeeded("ticker") >= 1);

		assertThat(schedules().remove("ticker")).isTrue();
		assertThat(schedules().remove("ticker")).isFalse();

		long jobs = jobs("ticker");
		await().during(Duration.ofMillis(2_500)).atMost(WAIT).until(() -> jobs("ticker") == jobs);
		assertThat(schedules().list()).isEmpty();
	}

	@Test
	void aNodeThatDeclaresTheNameLeavesTheAddedScheduleAlone() {
		schedules().put("shared", EVERY_SECOND);
		HandlerRegistry declaring = new HandlerRegistry();
		declaring.register(QueueFixture.definition("tick", Greeting.class, null, false, (greeting, context) -> {
			ran.add(greeting);
			return null;
		}));
		declaring.registerSchedule(new ScheduleDefinition("shared", YEARLY, "another version's declaration"));
		fixture.startRuntime(declaring, QueueFixture.SETTINGS, new CountingListener());

		await().atMost(WAIT).until(() -> succeeded("shared") >= 2);
		assertThat(schedules().list()).singleElement().satisfies(status -> {
			assertThat(status.timing()).isEqualTo("every PT1S");
			assertThat(status.added()).isTrue();
		});
	}

	@Test
	void whatDoesNotFitIsRefusedAndChangesNothing() {
		fixture.handlers().registerSchedule(new ScheduleDefinition("declared", YEARLY, "test declaration"));
		fixture.startRuntime();
		await().atMost(WAIT).until(() -> schedules().list().size() == 1);

		assertThatIllegalArgumentException().isThrownBy(() -> schedules().put("bad name!", EVERY_SECOND))
			.withMessageContaining("schedule name must match");
		assertThatIllegalArgumentException().isThrownBy(() -> schedules().put("nokind", Schedule.every(
				Duration.ofSeconds(1)))).withMessageContaining("names no kind");
		assertThatIllegalArgumentException().isThrownBy(() -> schedules().put("unknown", EVERY_SECOND.kind("nope")))
			.withMessageContaining("'nope'");
		assertThatIllegalArgumentException().isThrownBy(() -> schedules().put("misfit", EVERY_SECOND.payload("text")))
			.withMessageContaining("does not fit");
		assertThatIllegalArgumentException().isThrownBy(() -> schedules().put("declared", EVERY_SECOND))
			.withMessageContaining("declared in code on this node");
		assertThatIllegalArgumentException().isThrownBy(() -> schedules().remove("declared"))
			.withMessageContaining("declared in code on this node");
		assertThatIllegalArgumentException().isThrownBy(() -> schedules().pause("missing"))
			.withMessageContaining("no schedule 'missing'; schedules: declared");
		assertThatIllegalArgumentException().isThrownBy(() -> schedules().resume("missing"));
		assertThatIllegalArgumentException().isThrownBy(() -> schedules().trigger("missing"));

		assertThat(schedules().list()).singleElement().satisfies(status -> {
			assertThat(status.name()).isEqualTo("declared");
			assertThat(status.added()).isFalse();
			assertThat(status.paused()).isFalse();
			assertThat(status.kind()).isEqualTo("tick");
		});
		assertThat(jobs("")).isZero();
	}

	private long succeeded(String schedule) {
		return fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job WHERE unique_key LIKE :prefix AND state = :state")
			.param("prefix", ScheduledJob.KEY_PREFIX + schedule + "%")
			.param("state", JobState.succeeded.name())
			.query(Long.class)
			.single();
	}

	private long jobs(String schedule) {
		return fixture.jdbc().sql("SELECT count(*) FROM jobqueue_job WHERE unique_key LIKE :prefix")
			.param("prefix", ScheduledJob.KEY_PREFIX + schedule + "%")
			.query(Long.class)
			.single();
	}

	private List<Instant> fireTimes(String schedule) {
		String prefix = ScheduledJob.KEY_PREFIX + schedule + "@";
		return fixture.jdbc().sql("SELECT unique_key FROM jobqueue_job WHERE unique_key LIKE :prefix")
			.param("prefix", prefix + "%")
			.query(String.class)
			.list()
			.stream()
			.map(key -> Instant.parse(key.substring(prefix.length())))
			.sorted()
			.toList();
	}

	private List<String> duplicateKeys() {
		return fixture.jdbc().sql("SELECT unique_key FROM jobqueue_job GROUP BY unique_key HAVING count(*) > 1")
			.query(String.class)
			.list();
	}
}
