package dev.jobqueue.store.sqlite;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.JobCounts;
import dev.jobqueue.support.SqliteTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On SQLite every statement that writes holds the one write lock while it runs, so a statement that
 * scanned the whole job table would stop every claim for as long as the scan took. The periodic and
 * hot statements read their rows from the partial index that holds them; SQLite says which in
 * {@code EXPLAIN QUERY PLAN}, where a full scan shows as {@code SCAN jobqueue_job} with no index.
 */
class SqliteQueryPlanTest {

	/**
	 * One search per priority, each bounded by run_at, in claim order with no sort: searched on the queue
	 * alone, the claim walked past every future job of a priority before the next one's due jobs.
	 */
	@Test
	void theClaimSearchesTheReadyIndexPriorityByPriorityUpToNow() {
		assertThat(plan(SqliteLeases.CLAIM,
				Map.of("queue", "default", "versions", "{\"greet\": 1}", "limit", 32, "owner", "w", "leaseMillis", 30_000)))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_ready_idx (queue=? AND priority=? AND run_at<?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"))
			.noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
	}

	@Test
	void theChangeWatchersDueCheckSearchesTheReadyIndexPriorityByPriorityUpToNow() {
		assertThat(plan(SqliteChangeWatcher.DUE, List.of("default", "default")))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_ready_idx (queue=? AND priority=? AND run_at<?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"));
	}

	@Test
	void theClaimReadsThePausesOnceEachByTheirPrimaryKeyNotOncePerRow() {
		assertThat(plan(SqliteLeases.CLAIM,
				Map.of("queue", "default", "versions", "{\"greet\": 1}", "limit", 32, "owner", "w", "leaseMillis", 30_000)))
			.contains("SCALAR SUBQUERY 2", "LIST SUBQUERY 3")
			.anySatisfy(step -> assertThat(step).isEqualTo("SEARCH jobqueue_pause USING PRIMARY KEY (scope=? AND name=?)"))
			.anySatisfy(step -> assertThat(step).isEqualTo("SEARCH jobqueue_pause USING PRIMARY KEY (scope=?)"))
			.noneSatisfy(step -> assertThat(step).contains("CORRELATED SCALAR SUBQUERY 2"))
			.noneSatisfy(step -> assertThat(step).contains("CORRELATED LIST SUBQUERY"));
	}

	@Test
	void theNextDueTimeReadsTheReadyIndexOncePerPriority() {
		assertThat(plan(SqliteLeases.NEXT_DUE,
				Map.of("queue", "default", "versions", "{\"greet\": 1}", "horizonMillis", 1_000)))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_ready_idx (queue=? AND priority=? AND run_at<?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"))
			.noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
	}

	@Test
	void theOldestReadyJobIsReadFromTheReadyIndexOncePerPriorityWithoutASort() {
		assertThat(plan(SqliteTelemetry.OLDEST_READY, Map.of("queue", "default")))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_ready_idx (queue=? AND priority=?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"))
			.noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
	}

	@Test
	void theReaperReadsTheLeaseIndex() {
		assertThat(plan(SqliteMaintenance.REAP, Map.of("limit", 100, "maxEntries", 10, "maxUnconfirmedReaps", 10)))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_lease_idx"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"));
	}

	@Test
	void thePrunerReadsTheFinishedIndexUpToTheShorterRetention() {
		assertThat(plan(SqliteMaintenance.PRUNE,
				Map.of("finishedMillis", 86_400_000L, "deadMillis", 1_209_600_000L, "limit", 1_000)))
			.anySatisfy(step -> assertThat(step).contains("USING INDEX jobqueue_job_finished_idx (finished_at<?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"));
	}

	@Test
	void theUnfinishedCountsReadTheReadyAndTheLeaseIndexes() {
		assertThat(plan(JobCounts.UNFINISHED, Map.of()))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_ready_idx"))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_lease_idx"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"));
	}

	@Test
	void explainCountsAKeysHoldersWaitingJobsAndRecentStartsThroughTheKeyIndexes() {
		assertThat(plan(SqliteExplain.KEY_SLOTS, Map.of("key", "account-1", "id", 42)))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_blocked_idx (concurrency_key=? AND id<?)"))
			.anySatisfy(step -> assertThat(step).startsWith("SEARCH h USING INDEX jobqueue_job_key_"))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_key_started_idx (concurrency_key=? AND started_at>?)"))
			.noneSatisfy(step -> assertThat(step).matches("SCAN (jobqueue_job|h|b|s)\\b.*"));
		assertThat(plan(SqliteExplain.HOLDERS, Map.of("key", "account-1", "max", 10)))
			.anySatisfy(step -> assertThat(step).contains("USING INDEX jobqueue_job_key_"))
			.noneSatisfy(step -> assertThat(step).startsWith("SCAN jobqueue_job"));
	}

	@Test
	void explainCountsTheJobsAheadInTheReadyIndexAndTheRunningOnesInTheLeaseIndex() {
		assertThat(plan(SqliteExplain.READY_AHEAD, Map.of("id", 42, "cap", 10_000)))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_ready_idx (queue=? AND priority<?)"))
			.noneSatisfy(step -> assertThat(step).matches("SCAN (jobqueue_job|a|j)\\b.*"));
		assertThat(plan(SqliteExplain.RUNNING_BY_OWNER, Map.of("queue", "default")))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_lease_idx"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"));
	}

	/** The steps of SQLite's plan for {@code sql} on a fresh file, as its {@code detail} column words them. */
	private static List<String> plan(String sql, Map<String, Object> params) {
		try (SqliteTestDatabase database = new SqliteTestDatabase()) {
			return JdbcClient.create(database.dataSource())
				.sql("EXPLAIN QUERY PLAN " + sql)
				.params(params)
				.query((rs, n) -> rs.getString("detail"))
				.list();
		}
	}

	/** As above, for a statement with positional parameters. */
	private static List<String> plan(String sql, List<Object> params) {
		try (SqliteTestDatabase database = new SqliteTestDatabase()) {
			return JdbcClient.create(database.dataSource())
				.sql("EXPLAIN QUERY PLAN " + sql)
				.params(params)
				.query((rs, n) -> rs.getString("detail"))
				.list();
		}
	}
}
