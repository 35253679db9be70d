package dev.jobqueue.postgres;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.ExplainedPlans;
import dev.jobqueue.support.OnePostgresSession;
import dev.jobqueue.support.StatementNotices;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batched completion, heartbeat or keyed bulk enqueue of many jobs costs in proportion to the batch,
 * under the plan PostgreSQL settles on for the prepared statement: its generic plan, which guesses an
 * array parameter at ten elements. The plans actually run come back as notices from {@code auto_explain};
 * no join in them may find its rows by filtering the pairs of two inputs, which for a batch of 500
 * meant 250,000 comparisons.
 */
class PostgresBatchPlanTest {

	@RegisterExtension
	static final OnePostgresSession postgres = new OnePostgresSession();

	private static final int BATCH = 500;

	private static final Pattern REMOVED_BY_JOIN_FILTER = Pattern.compile("Rows Removed by Join Filter: (\\d+)");

	private final StatementNotices notices = new StatementNotices(postgres.session());

	private final JdbcClient jdbc = JdbcClient.create(postgres.session());

	private final JobStore store = PostgresDialect.jobStore(notices);

	@Test
	void aBatchOf500CompletionsAndHeartbeatsJoinsEachJobOnce() {
		postgres.database().reset();
		store.enqueues().enqueueAll(IntStream.range(0, BATCH).mapToObj(i -> job()).toList());
		List<Lease> leases = store.claims().claim("default", Map.of("greet", 1), BATCH, "owner", Duration.ofMinutes(1),
				false)
			.stream()
			.map(ClaimedJob::lease)
			.toList();
		ExplainedPlans.explainEveryStatementWithItsGenericPlan(jdbc);

		assertThat(store.claims().heartbeat("owner", leases, Duration.ofMinutes(1))).hasSize(BATCH);
		assertThat(store.outcomes().completeAll(leases.stream().map(lease -> new Completion(lease, null)).toList())).isEmpty();

		List<String> plans = notices.notices().stream().filter(notice -> notice.contains("jobqueue_job")).toList();
		assertThat(plans).hasSize(2);
		assertThat(plans).allSatisfy(plan -> assertThat(ExplainedPlans.sum(REMOVED_BY_JOIN_FILTER, plan)).isLessThan(BATCH));
		assertThat(jdbc.sql("SELECT count(*) FROM jobqueue_job WHERE state = 'succeeded'").query(Long.class).single())
			.isEqualTo(BATCH);
	}

	@Test
	void aBulkEnqueueOf500KeyedJobsJoinsEachJobOnce() {
		postgres.database().reset();
		ExplainedPlans.explainEveryStatementWithItsGenericPlan(jdbc);

		List<EnqueueResult> ids = store.enqueues().enqueueAll(IntStream.range(0, BATCH).mapToObj(i -> keyedJob("key-" + i)).toList());

		List<String> plans = notices.notices().stream().filter(notice -> notice.contains("unique_key")).toList();
		assertThat(plans).isNotEmpty();
		assertThat(plans).allSatisfy(plan -> assertThat(ExplainedPlans.sum(REMOVED_BY_JOIN_FILTER, plan)).isLessThan(BATCH));
		assertThat(ids).doesNotHaveDuplicates().hasSize(BATCH).allMatch(EnqueueResult::inserted);
	}

	/**
	 * The promotion of many keys updates its jobs found by their ids, a primary-key lookup each, on a table not
	 * yet analyzed: found by the id among the blocked index's entries instead (as an update by {@code id =
	 * ANY(ids)} or a join with the ids was planned), every promotion read all the waiting jobs of every key.
	 */
	@Test
	void aPromotionOf500KeysLooksEachPromotedJobUpByItsId() {
		postgres.database().reset();
		List<String> keys = IntStream.range(0, BATCH).mapToObj(i -> "key-" + i).toList();
		store.enqueues().enqueueAll(IntStream.range(0, 20 * BATCH).mapToObj(i -> waitingJob(keys.get(i % BATCH))).toList());
		ExplainedPlans.explainEveryStatementWithItsGenericPlan(jdbc);
		jdbc.sql("SET auto_explain.log_nested_statements = on").update();

		assertThat(store.promotions().promote(keys)).containsExactly("default");

		List<String> updates = notices.notices().stream().filter(notice -> notice.contains("Update on jobqueue_job")).toList();
		assertThat(updates).isNotEmpty()
			.allSatisfy(plan -> assertThat(plan).contains("Index Scan using jobqueue_job_pkey on jobqueue_job")
				.doesNotContain("jobqueue_job_blocked_idx on jobqueue_job j"));
		assertThat(jdbc.sql("SELECT count(*) FROM jobqueue_job WHERE state = 'ready'").query(Long.class).single())
			.isEqualTo(BATCH);
	}

	private static NewJob job() {
		return keyedJob(null);
	}

	private static NewJob waitingJob(String concurrencyKey) {
		return new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, null,
				new NewJob.KeySlot(concurrencyKey, 1, false, null));
	}

	private static NewJob keyedJob(String uniqueKey) {
		return new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, uniqueKey);
	}
}
