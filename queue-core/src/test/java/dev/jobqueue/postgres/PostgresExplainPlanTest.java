package dev.jobqueue.postgres;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.ExplainedPlans;
import dev.jobqueue.support.OnePostgresSession;
import dev.jobqueue.support.StatementNotices;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Explaining a job reads only the rows its reason is about, through the partial index that holds them, never the
 * table's finished rows: on a table of 20,000 succeeded jobs and a few waiting ones, no plan of its reads (as
 * {@code auto_explain} reports them) scans the job table.
 */
class PostgresExplainPlanTest {

	@RegisterExtension
	static final OnePostgresSession postgres = new OnePostgresSession();

	private final StatementNotices notices = new StatementNotices(postgres.session());

	private final JdbcClient jdbc = JdbcClient.create(postgres.session());

	private final JobStore store = PostgresDialect.jobStore(notices);

	@Test
	void theReadsBehindExplainUseTheIndexesOfTheRowsTheyCount() {
		postgres.database().reset();
		store.enqueues().enqueueAll(IntStream.range(0, 20_000).mapToObj(i -> job(null)).toList());
		jdbc.sql("UPDATE jobqueue_job SET state = 'succeeded', finished_at = now()").update();
		store.enqueues().enqueueAll(IntStream.range(0, 20).mapToObj(i -> job(new NewJob.KeySlot("key-" + i % 4, 1, false,
				Duration.ofMinutes(1)))).toList());
		// Each key's first job holds its slot, as a promotion would leave it.
		jdbc.sql("""
				UPDATE jobqueue_job SET state = 'ready', started_at = now()
				WHERE id IN (SELECT min(id) FROM jobqueue_job WHERE state = 'blocked' GROUP BY concurrency_key)""").update();
		long waiting = store.enqueues().enqueue(job(new NewJob.KeySlot("key-0", 1, false, Duration.ofMinutes(1)))).id();
		long ready = store.enqueues().enqueue(job(null)).id();
		jdbc.sql("ANALYZE jobqueue_job").update();
		ExplainedPlans.explainEveryStatementWithItsGenericPlan(jdbc);

		assertThat(store.explain().keySlots("key-0", waiting)).isPresent();
		store.explain().readyAhead(ready, 10_000);
		store.explain().runningByOwner("default");

		List<String> plans = notices.notices().stream().filter(notice -> notice.contains("jobqueue_job")).toList();
		assertThat(plans).hasSizeGreaterThanOrEqualTo(4)
			.allSatisfy(plan -> assertThat(plan).doesNotContain("Seq Scan on jobqueue_job"));
		ExplainedPlans.explainNoMore(jdbc);
	}

	private static NewJob job(NewJob.KeySlot slot) {
		return new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, null, slot);
	}
}
