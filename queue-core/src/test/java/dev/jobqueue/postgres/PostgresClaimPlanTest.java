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
import dev.jobqueue.store.postgres.PostgresJobStore;
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

	/** A scan of the ready index, and the first count of buffers after it: its own. */
	private static final Pattern READY_INDEX_SCAN = Pattern.compile("Index Scan using jobqueue_job_ready_idx[^\\n]*\\n"
			+ "(?:[^\\n]*\\n)*?\\s*Buffers: shared hit=(\\d+)(?: read=(\\d+))?");

	private static final Pattern PRIORITIES_READ = Pattern
		.compile("Values Scan on \"\\*VALUES\\*\"[^\\n]*\\(actual time=[^)]* rows=(\\d+) loops=1\\)");

	private static final Map<String, Integer> SERVED = Map.of("greet", 1);

	private final StatementNotices notices = new StatementNotices(postgres.session());

	private final JdbcClient jdbc = JdbcClient.create(postgres.session());

	private final JobStore store = new PostgresJobStore(notices);

	@BeforeEach
	void twoHundredThousandJobsDueInAnHour() {
		postgres.database().reset();
		store.enqueueAll(IntStream.range(0, 200_000).mapToObj(i -> job(5, Duration.ofHours(1))).toList());
	}

	@AfterEach
	void explainNoMore() {
		jdbc.sql("SET auto_explain.log_min_duration = -1").update();
		jdbc.sql("RESET plan_cache_mode").update();
	}

	@Test
	void anIdleClaimReadsAFewPagesOfTheReadyIndexWhateverTheFutureJobsAhead() {
		explainEveryStatementWithItsGenericPlan();

		assertThat(store.claim("default", SERVED, 32, "owner", Duration.ofMinutes(1))).isEmpty();

		assertThat(readyIndexPagesRead(claimPlan())).isLessThanOrEqualTo(60);
	}

	@Test
	void aClaimReachesTheDueJobsOfALowerPriorityWithoutWalkingPastTheFutureOnes() {
		List<Long> dueAtSix = store.enqueueAll(IntStream.range(0, 1_000).mapToObj(i -> job(6, Duration.ZERO)).toList())
			.stream()
			.map(EnqueueResult::id)
			.toList();
		store.enqueueAll(IntStream.range(0, 1_000).mapToObj(i -> job(7, Duration.ZERO)).toList());
		explainEveryStatementWithItsGenericPlan();

		List<ClaimedJob> claimed = store.claim("default", SERVED, 32, "owner", Duration.ofMinutes(1));

		// Claim order: the first 32 of priority 6, enqueued together and so due together, by id.
		assertThat(claimed).extracting(ClaimedJob::id).containsExactlyElementsOf(dueAtSix.subList(0, 32));
		String plan = claimPlan();
		assertThat(readyIndexPagesRead(plan)).isLessThanOrEqualTo(150);
		// Priorities 0 to 6 looked at, then no more: the claim stopped pulling, and locking, once it had 32.
		Matcher priorities = PRIORITIES_READ.matcher(plan);
		assertThat(priorities.find()).as(plan).isTrue();
		assertThat(priorities.group(1)).isEqualTo("7");
	}

	private String claimPlan() {
		List<String> plans = notices.notices().stream().filter(notice -> notice.contains("lease_owner")).toList();
		assertThat(plans).hasSize(1);
		return plans.get(0);
	}

	/** The pages of the ready index that the claim's scans of it read, summed over them. */
	private static long readyIndexPagesRead(String plan) {
		long pages = 0;
		Matcher scan = READY_INDEX_SCAN.matcher(plan);
		while (scan.find()) {
			pages += Long.parseLong(scan.group(1)) + (scan.group(2) == null ? 0 : Long.parseLong(scan.group(2)));
		}
		assertThat(pages).as(plan).isPositive();
		return pages;
	}

	private void explainEveryStatementWithItsGenericPlan() {
		jdbc.sql("ANALYZE jobqueue_job").update();
		jdbc.sql("LOAD 'auto_explain'").update();
		jdbc.sql("SET auto_explain.log_min_duration = 0").update();
		jdbc.sql("SET auto_explain.log_analyze = on").update();
		jdbc.sql("SET auto_explain.log_buffers = on").update();
		jdbc.sql("SET auto_explain.log_level = notice").update();
		jdbc.sql("SET plan_cache_mode = force_generic_plan").update();
	}

	private static NewJob job(int priority, Duration delay) {
		return new NewJob("default", "greet", "{}", 1, priority, null, delay, 3, null);
	}
}
