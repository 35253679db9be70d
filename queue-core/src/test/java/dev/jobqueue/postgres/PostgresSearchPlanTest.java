package dev.jobqueue.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.store.JobCounts;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.ExplainedPlans;
import dev.jobqueue.support.OnePostgresSession;
import dev.jobqueue.support.StatementNotices;

/**
 * The search and the counts read indexes, never the whole table, on a table that holds mostly finished rows
 * (100,000, enough for the planner to weigh a scan of the table against an index as it would on a big one).
 * Read from the plans actually run ({@code auto_explain}): the first run's, and the tenth's, once the driver has
 * prepared the statement on the server (from the fifth run) and PostgreSQL has weighed its generic plan against
 * the plans made for the values bound. The generic plan of a search cannot tell which optional filters are
 * set, and estimates that they leave a few rows: it would read every row of the state and sort them. It costs
 * far more than the plans made for the values, so PostgreSQL keeps making those, which this test pins.
 */
class PostgresSearchPlanTest {

	@RegisterExtension
	static final OnePostgresSession postgres = new OnePostgresSession();

	private final StatementNotices notices = new StatementNotices(postgres.session());

	private final JdbcClient jdbc = JdbcClient.create(postgres.session());

	private final JobStore store = PostgresDialect.jobStore(notices);

	@BeforeEach
	void aHundredThousandFinishedJobsInFourQueuesAndASmallOneAndAFewReadyOnes() {
		postgres.database().reset();
		// A small queue's jobs, the oldest: a walk of the primary key from the newest would reach them last.
		jdbc.sql("""
				INSERT INTO jobqueue_job (queue, kind, payload, state, max_attempts, finished_at)
				SELECT 'small', 'k0', '{}', 'succeeded', 1, now() - interval '2 days' FROM generate_series(1, 1000)""")
			.update();
		// 1 % dead, 1 % cancelled, the rest succeeded; the ready ones are the newest, as a backlog is.
		jdbc.sql("""
				INSERT INTO jobqueue_job (queue, kind, payload, state, max_attempts, finished_at, last_error)
				SELECT 'q' || (i % 4), 'k' || (i % 10), '{}',
				       CASE WHEN i % 100 = 0 THEN 'dead' WHEN i % 100 = 1 THEN 'cancelled' ELSE 'succeeded' END,
				       1, now() - (100000 - i) * interval '1 second', CASE WHEN i % 100 = 0 THEN 'boom' END
				FROM generate_series(1, 100000) AS i""").update();
		jdbc.sql("""
				INSERT INTO jobqueue_job (queue, kind, payload, state, max_attempts)
				SELECT 'q0', 'k1', '{}', 'ready', 1 FROM generate_series(1, 500)""").update();
		jdbc.sql("ANALYZE jobqueue_job").update();
	}

	@AfterEach
	void explainNoMore() {
		ExplainedPlans.explainNoMore(jdbc);
	}

	/** Cancelled or dead, the rare finished states, across all queues: their own (state, id) index. */
	@Test
	void oneRareStatesJobsAreReadNewestFirstFromTheCancelledAndDeadIndexWithNoSort() {
		for (JobState state : List.of(JobState.dead, JobState.cancelled)) {
			for (int runs : List.of(1, 10)) {
				assertThat(planOfSearch(JobQuery.all().states(state), runs)).as(state + ", " + runs + " runs")
					.contains("Backward using jobqueue_job_cancelled_dead_idx")
					.doesNotContain("Seq Scan", "Sort");
			}
		}
	}

	/**
	 * No index holds the succeeded rows of every queue: each completion would write an entry in it. None is
	 * needed: they are most of a table that keeps finished jobs, so the walk of the primary key newest first
	 * meets a page of them within a few pages (here past the backlog of ready jobs, which are the newest).
	 */
	@Test
	void succeededJobsOfEveryQueueAreAWalkOfThePrimaryKeyNewestFirst() {
		for (int runs : List.of(1, 10)) {
			assertThat(planOfSearch(JobQuery.all().states(JobState.succeeded), runs)).as(runs + " runs")
				.contains("Index Scan Backward using jobqueue_job_pkey")
				.doesNotContain("Seq Scan", "Sort");
		}
	}

	/**
	 * One queue's jobs of a finished state, when they are few among the rows (a small queue's succeeded ones, the
	 * oldest of the table, which a walk of the primary key from the newest would reach last), are a range of the
	 * finished rows' (queue, state, finished_at) index, sorted by id: a sort of that queue's rows of the state, not
	 * of the table. A queue's dead jobs are a walk of the cancelled and dead index or a range of the finished one. A
	 * big queue's succeeded jobs (a quarter of this table) are as cheap to meet by a walk of the primary key.
	 */
	@Test
	void oneQueuesFinishedJobsAreReadFromAnIndexOfFinishedRowsOrThePrimaryKeyNeverTheTable() {
		for (int runs : List.of(1, 10)) {
			assertThat(planOfSearch(JobQuery.all().queue("small").states(JobState.succeeded), runs)).as(runs + " runs")
				.contains("jobqueue_job_queue_finished_idx")
				.doesNotContain("Seq Scan");
			assertThat(planOfSearch(JobQuery.all().queue("q0").states(JobState.dead), runs)).as(runs + " runs")
				.containsPattern("jobqueue_job_(queue_finished|cancelled_dead)_idx")
				.doesNotContain("Seq Scan");
		}
		assertThat(planOfSearch(JobQuery.all().queue("q1").states(JobState.succeeded), 10))
			.containsPattern("jobqueue_job_(pkey|queue_finished_idx)")
			.doesNotContain("Seq Scan");
		assertThat(planOfSearch(JobQuery.all().queue("q0").kind("k0").states(JobState.dead).errorContains("boom"),
				10))
			.containsPattern("jobqueue_job_(queue_finished|cancelled_dead)_idx")
			.doesNotContain("Seq Scan");
	}

	@Test
	void everyJobNewestFirstIsAWalkOfThePrimaryKeyFromTheCursorDown() {
		for (int runs : List.of(1, 10)) {
			assertThat(planOfSearch(JobQuery.all(), runs)).as(runs + " runs")
				.contains("Index Scan Backward using jobqueue_job_pkey")
				.doesNotContain("Seq Scan", "Sort");
		}
	}

	/** A bulk delete's selection: every finished state, of one kind. */
	@Test
	void everyFinishedStateOfOneKindIsAWalkOfAnIndexNeverAScanOfTheTable() {
		JobQuery finished = JobQuery.all().kind("k3").states(JobState.succeeded, JobState.cancelled, JobState.dead);

		for (int runs : List.of(1, 10)) {
			assertThat(planOfSearch(finished, runs)).as(runs + " runs")
				.contains("Index")
				.doesNotContain("Seq Scan");
		}
	}

	@Test
	void readyJobsAreReadFromAnIndexNeverFromAScanOfTheTable() {
		assertThat(planOfSearch(JobQuery.all().queue("q0").states(JobState.ready), 1))
			.contains("Index")
			.doesNotContain("Seq Scan");
	}

	@Test
	void theCountsReadTheIndexesOnlyAndStopEachFinishedStateAtTheCap() {
		explain("auto");
		int before = notices.notices().size();

		Map<String, Map<JobState, Long>> counts = store.telemetry().countByQueueAndState();

		String plans = String.join("\n", notices.notices().subList(before, notices.notices().size()));
		assertThat(plans).contains("Index Only Scan using jobqueue_job_queue_finished_idx").doesNotContain("Seq Scan");
		assertThat(counts.get("q1")).isEqualTo(Map.of(JobState.succeeded, (long) JobCounts.FINISHED_CAP,
				JobState.cancelled, 1_000L));
		assertThat(counts.get("q0")).isEqualTo(Map.of(JobState.ready, 500L, JobState.succeeded,
				(long) JobCounts.FINISHED_CAP, JobState.dead, 1_000L));
		assertThat(counts.get("q2")).isEqualTo(Map.of(JobState.succeeded, (long) JobCounts.FINISHED_CAP));
	}

	/** The plan of the last of {@code runs} runs of the search: the driver prepares it on the server from the fifth. */
	private String planOfSearch(JobQuery query, int runs) {
		explain("auto");
		int before = notices.notices().size();
		for (int i = 0; i < runs; i++) {
			assertThat(store.reads().search(query).idsBefore(Long.MAX_VALUE, 51)).isNotEmpty();
		}
		List<String> plans = notices.notices().subList(before, notices.notices().size());
		// One queue's finished jobs are counted first, up to JobCounts.FINISHED_CAP, a range of an index too.
		assertThat(plans).filteredOn(plan -> plan.contains("SELECT count(*)"))
			.allSatisfy(plan -> assertThat(plan).contains("jobqueue_job_queue_finished_idx").doesNotContain("Seq Scan"));
		List<String> searches = plans.stream().filter(plan -> !plan.contains("SELECT count(*)")).toList();
		assertThat(searches).hasSize(runs);
		return searches.get(runs - 1);
	}

	private void explain(String planCacheMode) {
		ExplainedPlans.explainEveryStatementWithItsGenericPlan(jdbc);
		jdbc.sql("SET plan_cache_mode = " + planCacheMode).update();
	}
}
