package dev.jobqueue.store.sqlite;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.store.JobCounts;
import dev.jobqueue.store.sqlite.support.SqliteChangeWatcher;
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
		assertThat(plan(SqliteClaims.CLAIM,
				Map.of("queue", "default", "versions", "{\"greet\": 1}", "limit", 32, "owner", "w", "leaseMillis", 30_000, "confirmed", true)))
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
		assertThat(plan(SqliteClaims.CLAIM,
				Map.of("queue", "default", "versions", "{\"greet\": 1}", "limit", 32, "owner", "w", "leaseMillis", 30_000, "confirmed", true)))
			.contains("SCALAR SUBQUERY 2", "LIST SUBQUERY 3")
			.anySatisfy(step -> assertThat(step).isEqualTo("SEARCH jobqueue_pause USING PRIMARY KEY (scope=? AND name=?)"))
			.anySatisfy(step -> assertThat(step).isEqualTo("SEARCH jobqueue_pause USING PRIMARY KEY (scope=?)"))
			.noneSatisfy(step -> assertThat(step).contains("CORRELATED SCALAR SUBQUERY 2"))
			.noneSatisfy(step -> assertThat(step).contains("CORRELATED LIST SUBQUERY"));
	}

	@Test
	void theNextDueTimeReadsTheReadyIndexOncePerPriority() {
		assertThat(plan(SqliteClaims.NEXT_DUE,
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

	/** The job the console links the wait to: the same probes, then its ten candidates by primary key. */
	@Test
	void theOldestReadyJobsIdIsReadFromTheReadyIndexOncePerPriority() {
		assertThat(plan(SqliteTelemetry.OLDEST_READY_JOB, Map.of("queue", "default")))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_ready_idx (queue=? AND priority=?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"));
	}

	/**
	 * The console's jobs finished per minute: the queues by the loose scan of the index of finished rows, then each
	 * queue and state a range of it, backwards from now in the index's order, so that its LIMIT stops the walk.
	 */
	@Test
	void theFinishedJobsPerMinuteAreReadFromTheFinishedIndexFromNowBackPerQueueAndState() {
		assertThat(plan(SqliteTelemetry.QUEUES_WITH_FINISHED_JOBS, Map.of("minutes", 60)))
			.anySatisfy(step -> assertThat(step).contains("COVERING INDEX jobqueue_job_queue_finished_idx (queue>?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"));
		assertThat(plan(SqliteTelemetry.FINISHED_PER_MINUTE,
				Map.of("queue", "default", "firstMinute", 0L, "cap", 100_000)))
			.anySatisfy(step -> assertThat(step)
				.contains("COVERING INDEX jobqueue_job_queue_finished_idx (queue=? AND state=? AND finished_at>?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"))
			.noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE FOR ORDER BY"));
	}

	@Test
	void theReaperReadsTheLeaseIndex() {
		assertThat(plan(SqliteMaintenance.REAP, Map.of("limit", 100, "maxEntries", 10, "maxUnconfirmedReaps", 10)))
			.anySatisfy(step -> assertThat(step).contains("jobqueue_job_lease_idx"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"));
	}

	/** The queues by the loose scan of the index of finished rows, each queue and state a range up to its cutoff. */
	@Test
	void thePrunerReadsTheFinishedIndexPerQueueAndStateUpToItsRetention() {
		assertThat(plan(SqliteMaintenance.PRUNE,
				Map.of("finishedMillis", 86_400_000L, "deadMillis", 1_209_600_000L, "limit", 1_000)))
			.anySatisfy(step -> assertThat(step).contains("COVERING INDEX jobqueue_job_queue_finished_idx (queue>?)"))
			.anySatisfy(step -> assertThat(step)
				.contains("USING INDEX jobqueue_job_queue_finished_idx (queue=? AND state=? AND finished_at<?)"))
			.noneSatisfy(step -> assertThat(step).matches("SCAN (jobqueue_job|j)"))
			.noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
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
	void explainAsksWhetherAJobHoldsItsKeysSlotByItsPrimaryKey() {
		assertThat(plan(SqliteExplain.HOLDS_SLOT, Map.of("id", 42)))
			.anySatisfy(step -> assertThat(step).contains("USING INTEGER PRIMARY KEY (rowid=?)"))
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

	/**
	 * Cancelled or dead, the rare finished states, in every queue or in one with many of them: a walk down their
	 * (state, id) index, no sort.
	 */
	@Test
	void aSearchOfOneRareFinishedStateWalksTheCancelledAndDeadIndexDownFromTheCursor() {
		assertThat(SqliteSearch.statement(JobQuery.all().states(JobState.dead), false))
			.isEqualTo(SqliteSearch.CANCELLED_OR_DEAD);
		assertThat(SqliteSearch.statement(JobQuery.all().queue("reports").states(JobState.cancelled), false))
			.isEqualTo(SqliteSearch.CANCELLED_OR_DEAD);
		assertThat(plan(SqliteSearch.CANCELLED_OR_DEAD, search(List.of("dead"), null)))
			.anySatisfy(step -> assertThat(step).contains("USING INDEX jobqueue_job_cancelled_dead_idx (state=? AND id<?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"))
			.noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
	}

	/**
	 * A few finished jobs of one queue, of one state or several: the ranges of the queue's states in the index of
	 * finished rows, sorted by id. The ranges hold only the queue's rows, where a walk of the rowid or of the
	 * (state, id) index would read every queue's.
	 */
	@Test
	void aSearchOfAFewFinishedJobsOfOneQueueReadsTheirRangesOfTheFinishedIndex() {
		assertThat(SqliteSearch.statement(JobQuery.all().queue("reports").states(JobState.succeeded), true))
			.isEqualTo(SqliteSearch.FEW_FINISHED_IN_QUEUE);
		assertThat(plan(SqliteSearch.FEW_FINISHED_IN_QUEUE, search(List.of("dead"), "reports")))
			.anySatisfy(step -> assertThat(step)
				.contains("USING INDEX jobqueue_job_queue_finished_idx (queue=? AND state=?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"));
		assertThat(plan(SqliteSearch.FEW_FINISHED_IN_QUEUE, search(List.of("succeeded", "dead"), "reports")))
			.anySatisfy(step -> assertThat(step)
				.contains("USING INDEX jobqueue_job_queue_finished_idx (queue=? AND state=?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"));
	}

	/** Whether they are few: each state's range of the queue in the index of finished rows, up to the cap. */
	@Test
	void theCountOfOneQueuesFinishedJobsReadsTheFinishedIndexOnly() {
		assertThat(plan(JobCounts.FINISHED_IN_QUEUE,
				Map.of("queue", "reports", "succeeded", true, "cancelled", true, "dead", true)))
			.anySatisfy(step -> assertThat(step)
				.contains("COVERING INDEX jobqueue_job_queue_finished_idx (queue=? AND state=? AND finished_at>?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"))
			.noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
	}

	/**
	 * Many succeeded jobs in one queue, as in every queue: the walk of the rowid newest first. The index of finished
	 * rows holds them in finished order, and would sort every succeeded row of the queue before the first page.
	 */
	@Test
	void aSearchOfManySucceededJobsInOneQueueWalksTheTableDownFromTheCursorWithNoSort() {
		assertThat(SqliteSearch.statement(JobQuery.all().queue("reports").states(JobState.succeeded), false))
			.isEqualTo(SqliteSearch.ANY);
		assertThat(plan(SqliteSearch.ANY, search(List.of("succeeded"), "reports")))
			.anySatisfy(step -> assertThat(step).contains("USING INTEGER PRIMARY KEY (rowid<?)"))
			.noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
		assertThat(plan(SqliteSearch.FEW_FINISHED_IN_QUEUE, search(List.of("succeeded"), "reports")))
			.as("why: the finished rows' index would sort")
			.anySatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
	}

	/**
	 * No index holds the succeeded rows of every queue: each completion would write an entry in it. None is
	 * needed: they are most of a table that keeps finished jobs, so the walk of the rowid newest first meets a
	 * page of them within a few pages.
	 */
	@Test
	void aSearchOfSucceededJobsInEveryQueueWalksTheTableDownFromTheCursorWithNoSort() {
		assertThat(SqliteSearch.statement(JobQuery.all().states(JobState.succeeded), false)).isEqualTo(SqliteSearch.ANY);
		assertThat(plan(SqliteSearch.ANY, search(List.of("succeeded"), null)))
			.anySatisfy(step -> assertThat(step).contains("USING INTEGER PRIMARY KEY (rowid<?)"))
			.noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
	}

	@Test
	void aSearchOfAnyStatesWalksTheTableDownFromTheCursorWithNoSort() {
		assertThat(SqliteSearch.statement(JobQuery.all().states(JobState.ready, JobState.running), false))
			.isEqualTo(SqliteSearch.ANY);
		assertThat(plan(SqliteSearch.ANY, search(List.of("ready", "running"), null)))
			.anySatisfy(step -> assertThat(step).contains("USING INTEGER PRIMARY KEY (rowid<?)"))
			.noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
	}

	/** Many jobs of several finished states (a bulk delete's): the walk of the rowid, not every row of each state sorted. */
	@Test
	void aSearchOfManyJobsOfSeveralFinishedStatesWalksTheTableDownFromTheCursorWithNoSort() {
		JobQuery finished = JobQuery.all().states(JobState.succeeded, JobState.cancelled, JobState.dead);

		assertThat(SqliteSearch.statement(finished, false)).isEqualTo(SqliteSearch.ANY);
		assertThat(SqliteSearch.statement(finished.queue("reports"), false)).isEqualTo(SqliteSearch.ANY);
		assertThat(plan(SqliteSearch.FEW_FINISHED_IN_QUEUE, search(List.of("succeeded", "dead"), "reports")))
			.as("why: the finished rows' index would sort")
			.anySatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
		assertThat(plan(SqliteSearch.ANY, search(List.of("succeeded", "cancelled", "dead"), null)))
			.anySatisfy(step -> assertThat(step).contains("USING INTEGER PRIMARY KEY (rowid<?)"))
			.noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
	}

	/** The queues by a loose scan of the index of finished rows, each count a range of (queue, state) in it. */
	@Test
	void theFinishedCountsReadTheFinishedIndexOnly() {
		assertThat(plan(SqliteTelemetry.FINISHED, Map.of("cap", JobCounts.FINISHED_CAP)))
			.anySatisfy(step -> assertThat(step).contains("COVERING INDEX jobqueue_job_queue_finished_idx (queue>?)"))
			.anySatisfy(step -> assertThat(step)
				.contains("COVERING INDEX jobqueue_job_queue_finished_idx (queue=? AND state=?)"))
			.noneSatisfy(step -> assertThat(step).isEqualTo("SCAN jobqueue_job"));
	}

	private static Map<String, Object> search(List<String> states, String queue) {
		Map<String, Object> params = new HashMap<>();
		params.put("states", states);
		params.put("before", Long.MAX_VALUE);
		params.put("queue", queue);
		params.put("kind", null);
		params.put("createdFrom", null);
		params.put("createdBefore", null);
		params.put("finishedFrom", null);
		params.put("finishedBefore", null);
		params.put("error", null);
		params.put("limit", 51);
		return params;
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
