package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobState;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.store.FinishedMinute;
import dev.jobqueue.store.JobSchema;
import dev.jobqueue.store.JobStore;

/**
 * Tables at schema version 31, holding finished jobs of two queues, upgraded to the latest version: their two
 * indexes of finished rows, by finished time and by queue, state and id, give way to one by queue, state and finished
 * time, and the counts, the jobs finished per minute and the pruner read the rows finished before the upgrade from
 * it. On a database of its own, empty before the test.
 */
public abstract class FinishedIndexUpgradeContractTest {

	private static final Duration TWO_HOURS = Duration.ofHours(2);

	private DataSource dataSource;

	/** A database, or file, with no table yet. */
	protected abstract DataSource emptyDatabase();

	protected abstract void dropDatabase();

	protected abstract String vendor();

	/** The names of the job table's indexes. */
	protected abstract List<String> indexes(JdbcClient jdbc);

	/** An update that moves the finished time of the jobs {@code :ids} back by {@code :millis}. */
	protected abstract String finishedEarlierBy();

	/** The SQL of the database's clock, as the job table stores times. */
	protected abstract String now();

	@BeforeEach
	void createDatabase() {
		dataSource = emptyDatabase();
	}

	@AfterEach
	void deleteDatabase() {
		dropDatabase();
	}

	@Test
	void jobsFinishedBeforeTheUpgradeAreCountedAndPrunedFromTheOneIndexOfFinishedRows() {
		Flyway.configure(JobSchema.class.getClassLoader())
			.configuration(JobSchema.flyway(dataSource, vendor()).getConfiguration())
			.target("31")
			.load()
			.migrate();
		JobStore store = JobStores.forDataSource(dataSource);
		assertThat(store.reads().schemaVersion()).hasValue(31);
		assertThat(indexes()).contains("jobqueue_job_finished_idx", "jobqueue_job_finished_queue_idx")
			.doesNotContain("jobqueue_job_queue_finished_idx");
		long oldSucceeded = finished("mail", JobState.succeeded, null);
		long otherOldSucceeded = finished("mail", JobState.succeeded, null);
		long oldDead = finished("mail", JobState.dead, null);
		long holdsKey = finished("mail", JobState.dead, "ledger-1");
		long succeeded = finished("mail", JobState.succeeded, null);
		long reportsSucceeded = finished("reports", JobState.succeeded, null);
		long reportsCancelled = finished("reports", JobState.cancelled, null);
		JdbcClient.create(dataSource)
			.sql(finishedEarlierBy())
			.param("millis", TWO_HOURS.toMillis())
			.param("ids", List.of(oldSucceeded, otherOldSucceeded, oldDead, holdsKey))
			.update();

		JobStores.migrate(dataSource, vendor());

		assertThat(store.reads().schemaVersion()).hasValue(JobSchema.VERSION);
		assertThat(indexes()).contains("jobqueue_job_queue_finished_idx", "jobqueue_job_cancelled_dead_idx")
			.doesNotContain("jobqueue_job_finished_idx", "jobqueue_job_finished_queue_idx");
		assertThat(store.telemetry().countByQueueAndState()).isEqualTo(Map.of(
				"mail", Map.of(JobState.succeeded, 3L, JobState.dead, 2L),
				"reports", Map.of(JobState.succeeded, 1L, JobState.cancelled, 1L)));
		assertThat(finishedInFiveMinutes(store)).isEqualTo(Map.of("mail", List.of(1L, 0L, 0L),
				"reports", List.of(1L, 1L, 0L)));

		assertThat(store.maintenance().prune(Duration.ofHours(1), Duration.ofHours(3), 1)).isEqualTo(1);
		assertThat(store.maintenance().prune(Duration.ofHours(1), Duration.ofHours(3), 100)).isEqualTo(1);
		assertThat(store.reads().find(oldSucceeded)).isEmpty();
		assertThat(store.reads().find(otherOldSucceeded)).isEmpty();
		assertThat(store.reads().find(oldDead)).as("within the retention of dead jobs").isPresent();
		assertThat(store.maintenance().prune(Duration.ofHours(1), Duration.ofHours(1), 100)).isEqualTo(1);
		assertThat(store.reads().find(oldDead)).isEmpty();
		assertThat(store.maintenance().prune(Duration.ZERO, Duration.ofHours(1), 100)).isEqualTo(3);
		assertThat(store.reads().find(holdsKey)).as("it holds its key's slot").isPresent();
		assertThat(List.of(succeeded, reportsSucceeded, reportsCancelled))
			.allSatisfy(id -> assertThat(store.reads().find(id)).isEmpty());
		assertThat(store.telemetry().countByQueueAndState()).isEqualTo(Map.of("mail", Map.of(JobState.dead, 1L)));
	}

	/**
	 * A job finished in {@code state}, written as the statements of schema version 31 left one: the store's of today
	 * write columns, and name an index, that version has not.
	 */
	private long finished(String queue, JobState state, String key) {
		return JdbcClient.create(dataSource).sql("""
				INSERT INTO jobqueue_job (queue, kind, payload, state, run_at, attempt, max_attempts, created_at,
				                          finished_at, concurrency_key, concurrency_limit, concurrency_dead_holds)
				VALUES (:queue, 'greet', '{}', :state, %1$s, 1, 1, %1$s, %1$s, :key, :limit, :holds = 1)
				RETURNING id""".formatted(now()))
			.param("queue", queue)
			.param("state", state.name())
			.param("key", key)
			.param("limit", key == null ? null : 1)
			.param("holds", key == null ? 0 : 1)
			.query(Long.class)
			.single();
	}

	private List<String> indexes() {
		return indexes(JdbcClient.create(dataSource));
	}

	/** Succeeded, cancelled and dead per queue, summed over the minutes: a minute may turn between two jobs. */
	private static Map<String, List<Long>> finishedInFiveMinutes(JobStore store) {
		return store.telemetry()
			.finishedPerMinute(5)
			.stream()
			.collect(Collectors.groupingBy(FinishedMinute::queue,
					Collectors.collectingAndThen(Collectors.toList(),
							rows -> List.of(rows.stream().mapToLong(FinishedMinute::succeeded).sum(),
									rows.stream().mapToLong(FinishedMinute::cancelled).sum(),
									rows.stream().mapToLong(FinishedMinute::dead).sum()))));
	}
}
