package dev.jobqueue.postgres;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.ExplainedPlans;
import dev.jobqueue.support.OnePostgresSession;
import dev.jobqueue.support.StatementNotices;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Delayed jobs and retries in backoff are ready rows with a future run-at, and the ready index orders by
 * priority before run-at. The claim must not walk past a priority's future jobs to reach the next
 * priority's due ones: with 200,000 jobs due in an hour, it reads a few pages of the ready index, whether
 * nothing is due or due jobs wait behind them at a lower priority. Read from the plans actually run
 * ({@code auto_explain}, with buffers) under the generic plan the driver settles on; 200,000 future entries
 * fill about 1,200 pages of the index, which the claim walked through before.
 */
class PostgresClaimPlanTest {

	@RegisterExtension
	static final OnePostgresSession postgres = new OnePostgresSession();

	private static final Pattern PRIORITIES_READ = Pattern
		.compile("Values Scan on \"\\*VALUES\\*\"[^\\n]*\\(actual time=[^)]* rows=(\\d+) loops=1\\)");

	private static final Map<String, Integer> SERVED = Map.of("greet", 1);

	private final StatementNotices notices = new StatementNotices(postgres.session());

	private final JdbcClient jdbc = JdbcClient.create(postgres.session());

	private final JobStore store = PostgresDialect.jobStore(notices);

	@BeforeEach
	void twoHundredThousandJobsDueInAnHour() {
		postgres.database().reset();
		store.enqueues().enqueueAll(IntStream.range(0, 200_000).mapToObj(i -> job(5, Duration.ofHours(1))).toList());
	}

	@AfterEach
	void explainNoMore() {
		ExplainedPlans.explainNoMore(jdbc);
	}

	@Test
	void anIdleClaimReadsAFewPagesOfTheReadyIndexWhateverTheFutureJobsAhead() {
		jdbc.sql("ANALYZE jobqueue_job").update();
		ExplainedPlans.explainEveryStatementWithItsGenericPlan(jdbc);

		assertThat(store.claims().claim("default", SERVED, 32, "owner", Duration.ofMinutes(1), false)).isEmpty();

		assertThat(ExplainedPlans.readyIndexPagesRead(ExplainedPlans.claimPlan(notices))).isLessThanOrEqualTo(60);
	}

	@Test
	void aClaimReachesTheDueJobsOfALowerPriorityWithoutWalkingPastTheFutureOnes() {
		List<Long> dueAtSix = store.enqueues().enqueueAll(IntStream.range(0, 1_000).mapToObj(i -> job(6, Duration.ZERO)).toList())
			.stream()
			.map(EnqueueResult::id)
			.toList();
		store.enqueues().enqueueAll(IntStream.range(0, 1_000).mapToObj(i -> job(7, Duration.ZERO)).toList());
		jdbc.sql("ANALYZE jobqueue_job").update();
		ExplainedPlans.explainEveryStatementWithItsGenericPlan(jdbc);

		List<ClaimedJob> claimed = store.claims().claim("default", SERVED, 32, "owner", Duration.ofMinutes(1), false);

		// Claim order: the first 32 of priority 6, enqueued together and so due together, by id.
		assertThat(claimed).extracting(ClaimedJob::id).containsExactlyElementsOf(dueAtSix.subList(0, 32));
		String plan = ExplainedPlans.claimPlan(notices);
		assertThat(ExplainedPlans.readyIndexPagesRead(plan)).isLessThanOrEqualTo(150);
		// Priorities 0 to 6 looked at, then no more: the claim stopped pulling, and locking, once it had 32.
		Matcher priorities = PRIORITIES_READ.matcher(plan);
		assertThat(priorities.find()).as(plan).isTrue();
		assertThat(priorities.group(1)).isEqualTo("7");
	}

	private static NewJob job(int priority, Duration delay) {
		return new NewJob("default", "greet", "{}", 1, priority, null, delay, 3, null);
	}
}
