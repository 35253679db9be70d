package dev.jobqueue.postgres;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.ExplainedPlans;
import dev.jobqueue.support.OnePostgresSession;
import dev.jobqueue.support.StatementNotices;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table that keeps many finished jobs: the vacuum of the few pages a burst of jobs left dead is, for
 * PostgreSQL 14 and later, too small to be worth a pass over the indexes ("index scan bypassed" below 2 % of
 * the table's pages), so without one asked for, the ready index keeps the entries of every job claimed since,
 * and each claim walks over them. 600,000 finished rows fill some 12,000 pages; the 3,000 jobs below leave
 * dead rows in fewer than 2 % of them, and their entries fill some 40 pages of the ready index.
 */
class PostgresReadyIndexCleanupTest {

	@RegisterExtension
	static final OnePostgresSession postgres = new OnePostgresSession();

	private static final int FINISHED = 600_000;

	/** As the runtime's vacuumer asks (Vacuumer.DEAD_ROW_THRESHOLD). */
	private static final long DEAD_ROW_THRESHOLD = 1_000;

	private static final Map<String, Integer> SERVED = Map.of("greet", 1);

	private final StatementNotices notices = new StatementNotices(postgres.session());

	private final JdbcClient jdbc = JdbcClient.create(postgres.session());

	private final JobStore store = PostgresDialect.jobStore(notices, false);

	@BeforeEach
	void aTableOfManyFinishedJobs() {
		postgres.database().reset();
		jdbc.sql("""
				INSERT INTO jobqueue_job (queue, kind, payload, state, attempt, max_attempts, started_at, finished_at)
				SELECT 'default', 'greet', '{}', 'succeeded', 1, 3, now(), now() FROM generate_series(1, :finished)""")
			.param("finished", FINISHED)
			.update();
		jdbc.sql("VACUUM ANALYZE jobqueue_job").update();
	}

	@AfterEach
	void explainNoMore() {
		ExplainedPlans.explainNoMore(jdbc);
	}

	@Test
	void aClaimAfterTheVacuumsOfBurstsOfJobsReadsAFewPagesOfTheReadyIndexHoweverManyFinishedRowsTheTableKeeps() {
		// Two bursts of 1,500 jobs, each vacuumed after it as the vacuumer would, every 2 s: 3,000 dead rows each.
		for (int burst = 0; burst < 2; burst++) {
			runJobs(1_500);
			assertThat(store.maintenance().vacuumIfBloated(DEAD_ROW_THRESHOLD)).isTrue();
		}
		store.enqueues().enqueueAll(IntStream.range(0, 10).mapToObj(i -> job()).toList());
		jdbc.sql("ANALYZE jobqueue_job").update();
		ExplainedPlans.explainEveryStatementWithItsGenericPlan(jdbc);

		assertThat(store.claims().claim("default", SERVED, 10, "owner", Duration.ofMinutes(1), false)).hasSize(10);

		// Ten descents, one per priority, of two pages each (root and leaf) when no dead entries are in the way;
		// with the 3,000 jobs' entries left in the index (the vacuum leaving the pass to PostgreSQL), 66 pages.
		assertThat(ExplainedPlans.readyIndexPagesRead(ExplainedPlans.claimPlan(notices))).isLessThanOrEqualTo(35);
	}

	/** Enqueues, claims and completes {@code count} jobs, and has the session report its dead rows. */
	private void runJobs(int count) {
		store.enqueues().enqueueAll(IntStream.range(0, count).mapToObj(i -> job()).toList());
		List<ClaimedJob> claimed = store.claims().claim("default", SERVED, count, "owner", Duration.ofMinutes(1),
				false);
		assertThat(claimed).hasSize(count);
		assertThat(store.outcomes().completeAll(claimed.stream().map(c -> new Completion(c.lease(), null)).toList())).isEmpty();
		jdbc.sql("SELECT pg_stat_force_next_flush()").query().singleValue();
	}

	private static NewJob job() {
		return new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, null);
	}
}
