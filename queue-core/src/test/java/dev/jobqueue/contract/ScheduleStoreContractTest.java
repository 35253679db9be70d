package dev.jobqueue.contract;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.runtime.ScheduledJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.ScheduleFiring;
import dev.jobqueue.store.ScheduleState;
import dev.jobqueue.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/** The schedule rows: defined once, advanced by compare-and-set together with their jobs, or not at all. */
public abstract class ScheduleStoreContractTest {

	private static final Instant ONE = Instant.parse("2026-01-01T01:00:00Z");

	private static final Instant TWO = Instant.parse("2026-01-01T02:00:00Z");

	protected abstract TestDatabase database();

	@BeforeEach
	void emptyTheQueue() {
		database().reset();
	}

	@Test
	void aScheduleIsDefinedOnceWhenTwoNodesDefineItFromNothing() {
		assertThat(store().schedules().defineSchedule("hourly", "every PT1H", null, ONE, 0)).isTrue();
		assertThat(store().schedules().defineSchedule("hourly", "every PT2H", null, TWO, 0)).isFalse();

		assertThat(store().schedules().schedules()).containsExactly(new ScheduleState("hourly", "every PT1H", ONE, null, 1, null, null));
	}

	@Test
	void aRedefinitionNamesTheVersionItReadAndKeepsTheLastFireTime() {
		store().schedules().defineSchedule("hourly", "every PT1H", null, ONE, 0);
		store().schedules().fireSchedule(firing(1, ONE, TWO, "report"));

		assertThat(store().schedules().defineSchedule("hourly", "every PT2H", null, Instant.parse("2026-01-01T04:00:00Z"), 1)).isFalse();
		assertThat(store().schedules().defineSchedule("hourly", "every PT2H", null, Instant.parse("2026-01-01T04:00:00Z"), 2)).isTrue();

		assertThat(store().schedules().schedules()).containsExactly(new ScheduleState("hourly", "every PT2H",
				Instant.parse("2026-01-01T04:00:00Z"), ONE, 3, null, null));
	}

	@Test
	void aFiringMovesTheRowAndEnqueuesItsJobTogether() {
		store().schedules().defineSchedule("hourly", "every PT1H", null, ONE, 0);

		assertThat(store().schedules().fireSchedule(firing(1, ONE, TWO, "report"))).isTrue();

		assertThat(store().schedules().schedules()).containsExactly(new ScheduleState("hourly", "every PT1H", TWO, ONE, 2, null, null));
		assertThat(keys()).containsExactly(ScheduledJob.uniqueKey("hourly", ONE));
	}

	@Test
	void aFiringOfAVersionAlreadyMovedOnChangesNothing() {
		store().schedules().defineSchedule("hourly", "every PT1H", null, ONE, 0);
		store().schedules().fireSchedule(firing(1, ONE, TWO, "report"));

		assertThat(store().schedules().fireSchedule(firing(1, ONE, TWO, "report"))).isFalse();

		assertThat(keys()).hasSize(1);
		assertThat(store().schedules().schedules()).singleElement().satisfies(row -> assertThat(row.version()).isEqualTo(2));
	}

	@Test
	void aFiringWhoseJobTheDatabaseRefusesLeavesTheRowWhereItWas() {
		store().schedules().defineSchedule("hourly", "every PT1H", null, ONE, 0);
		database().refusePoison();

		assertThatException().isThrownBy(() -> store().schedules().fireSchedule(firing(1, ONE, TWO, TestDatabase.POISON)));

		assertThat(store().schedules().schedules()).containsExactly(new ScheduleState("hourly", "every PT1H", ONE, null, 1, null, null));
		assertThat(keys()).isEmpty();
	}

	@Test
	void eightNodesFiringTheSameFireTimeAtOnceEnqueueOneJob() throws Exception {
		store().schedules().defineSchedule("hourly", "every PT1H", null, ONE, 0);
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService nodes = Executors.newFixedThreadPool(8);
		List<Future<Boolean>> outcomes = new ArrayList<>();
		try {
			for (int i = 0; i < 8; i++) {
				Callable<Boolean> fire = () -> {
					start.await();
					return store().schedules().fireSchedule(firing(1, ONE, TWO, "report"));
				};
				outcomes.add(nodes.submit(fire));
			}
			start.countDown();
			int won = 0;
			for (Future<Boolean> outcome : outcomes) {
				won += outcome.get() ? 1 : 0;
			}
			assertThat(won).isEqualTo(1);
		}
		finally {
			nodes.shutdownNow();
		}
		assertThat(keys()).containsExactly(ScheduledJob.uniqueKey("hourly", ONE));
	}

	private JobStore store() {
		return database().store();
	}

	private static ScheduleFiring firing(long version, Instant fireTime, Instant next, String kind) {
		NewJob job = new NewJob("default", kind, "null", 1, 5, null, Duration.ZERO, 3,
				ScheduledJob.uniqueKey("hourly", fireTime));
		return new ScheduleFiring("hourly", version, fireTime, next, List.of(job));
	}

	private List<String> keys() {
		return JdbcClient.create(database().dataSource())
			.sql("SELECT unique_key FROM jobqueue_job ORDER BY id")
			.query(String.class)
			.list();
	}
}
