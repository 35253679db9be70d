package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The vacuumer on PostgreSQL, with its real threshold. One connection does everything, so that the
 * statistics it reports can be flushed on demand ({@code pg_stat_force_next_flush()}) instead of
 * waited for. The store sends no notifications: its notifier would use the one connection from a thread
 * of its own, at the same time as the test.
 */
class VacuumerTest {

	private static PostgresTestDatabase database;

	private static SingleConnectionDataSource connection;

	private static JobStore store;

	private final Vacuumer vacuumer = new Vacuumer(store.maintenance());

	@BeforeAll
	static void openDatabase() {
		database = new PostgresTestDatabase(2);
		connection = new SingleConnectionDataSource(database.jdbcUrl(), true);
		store = PostgresDialect.jobStore(connection, false);
	}

	@AfterAll
	static void closeDatabase() {
		connection.destroy();
		database.close();
	}

	@BeforeEach
	void emptyAndVacuumedTable() {
		jdbc().sql("TRUNCATE jobqueue_job").update();
		store.maintenance().vacuumIfBloated(0);
		flushStatistics();
	}

	@Test
	void runOnceVacuumsOnceTheJobsRunSinceTheLastVacuumLeftAsManyDeadRowsAsTheThreshold() {
		runJobs((int) Vacuumer.DEAD_ROW_THRESHOLD / 2);
		assertThat(deadRows()).isGreaterThanOrEqualTo(Vacuumer.DEAD_ROW_THRESHOLD);
		long vacuums = vacuumCount();

		assertThat(vacuumer.runOnce()).isTrue();

		assertThat(vacuumCount()).isEqualTo(vacuums + 1);
		assertThat(deadRows()).isLessThan(Vacuumer.DEAD_ROW_THRESHOLD);
	}

	@Test
	void runOnceLeavesATableWithFewerDeadRowsThanTheThresholdAlone() {
		runJobs((int) Vacuumer.DEAD_ROW_THRESHOLD / 2 - 1);
		assertThat(deadRows()).isBetween(2L, Vacuumer.DEAD_ROW_THRESHOLD - 1);
		long vacuums = vacuumCount();

		assertThat(vacuumer.runOnce()).isFalse();

		assertThat(vacuumCount()).isEqualTo(vacuums);
	}

	@Test
	void runOnceLeavesAnIdleTableAlone() {
		long vacuums = vacuumCount();

		assertThat(vacuumer.runOnce()).isFalse();
		assertThat(vacuumer.runOnce()).isFalse();

		assertThat(vacuumCount()).isEqualTo(vacuums);
	}

	/** Enqueues, claims and completes {@code count} jobs: two dead row versions each. */
	private void runJobs(int count) {
		NewJob job = new NewJob(RuntimeSettings.DEFAULT_QUEUE, "work", "{}", 1, 0, null, Duration.ZERO, 3, null);
		store.enqueues().enqueueAll(IntStream.range(0, count).mapToObj(i -> job).toList());
		List<ClaimedJob> claimed = store.claims().claim(RuntimeSettings.DEFAULT_QUEUE, Map.of("work", 1), count, "test",
				Duration.ofMinutes(1), false);
		assertThat(claimed).hasSize(count);
		assertThat(store.outcomes().completeAll(claimed.stream().map(c -> new Completion(c.lease(), null)).toList())).isEmpty();
		flushStatistics();
	}

	/** Makes the (only) connection report its statistics as it goes idle after this statement. */
	private static void flushStatistics() {
		jdbc().sql("SELECT pg_stat_force_next_flush()").query().singleValue();
	}

	private static long deadRows() {
		return jdbc().sql("SELECT pg_stat_get_dead_tuples(CAST('jobqueue_job' AS regclass))").query(Long.class).single();
	}

	private static long vacuumCount() {
		return jdbc().sql("SELECT pg_stat_get_vacuum_count(CAST('jobqueue_job' AS regclass))").query(Long.class).single();
	}

	private static JdbcClient jdbc() {
		return JdbcClient.create(connection);
	}
}
