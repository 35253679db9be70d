package dev.jobqueue.postgres;

import java.time.Duration;
import java.util.List;
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
 * The telemetry reads stay off the table's bulk. The wait of a queue's oldest due job is read every few seconds
 * on every node, so it reads the ready index, a few entries per priority, never the table's finished rows: on a table of 20,000 succeeded jobs and a backlog of
 * 2,000 ready ones, its plan (as {@code auto_explain} reports it) scans only the ready index.
 */
class PostgresTelemetryPlanTest {

	@RegisterExtension
	static final OnePostgresSession postgres = new OnePostgresSession();

	private final StatementNotices notices = new StatementNotices(postgres.session());

	private final JdbcClient jdbc = JdbcClient.create(postgres.session());

	private final JobStore store = PostgresDialect.jobStore(notices);

	@Test
	void theOldestReadyJobIsReadFromTheReadyIndexOncePerPriority() {
		postgres.database().reset();
		store.enqueues().enqueueAll(IntStream.range(0, 20_000).mapToObj(i -> job(5)).toList());
		jdbc.sql("UPDATE jobqueue_job SET state = 'succeeded', finished_at = now()").update();
		store.enqueues().enqueueAll(IntStream.range(0, 2_000).mapToObj(i -> job(i % 10)).toList());
		jdbc.sql("ANALYZE jobqueue_job").update();
		ExplainedPlans.explainEveryStatementWithItsGenericPlan(jdbc);

		store.telemetry().oldestReadyAge("default");

		List<String> plans = notices.notices().stream().filter(notice -> notice.contains("jobqueue_job")).toList();
		assertThat(plans).singleElement().satisfies(plan -> assertThat(plan)
			.contains("using jobqueue_job_ready_idx", "loops=10")
			.doesNotContain("Seq Scan on jobqueue_job")
			.doesNotContain("Sort"));
		ExplainedPlans.explainNoMore(jdbc);
	}

	/**
	 * The console reads the jobs finished in the last few minutes at every look at its overview: from the finished
	 * index, each queue's states backwards from now, with no sort of the rows it reads, however many finished jobs
	 * the table keeps.
	 */
	@Test
	void theFinishedJobsPerMinuteAreReadBackwardsFromTheFinishedIndex() {
		postgres.database().reset();
		store.enqueues().enqueueAll(IntStream.range(0, 20_000).mapToObj(i -> job(5)).toList());
		jdbc.sql("UPDATE jobqueue_job SET state = 'succeeded', finished_at = now() - interval '2 days'").update();
		store.enqueues().enqueueAll(IntStream.range(0, 200).mapToObj(i -> job(5)).toList());
		jdbc.sql("UPDATE jobqueue_job SET state = 'dead', finished_at = now() WHERE state = 'ready'").update();
		jdbc.sql("ANALYZE jobqueue_job").update();
		ExplainedPlans.explainEveryStatementWithItsGenericPlan(jdbc);

		store.telemetry().finishedPerMinute(5);

		List<String> plans = notices.notices().stream().filter(notice -> notice.contains("jobqueue_job")).toList();
		assertThat(plans).singleElement().satisfies(plan -> assertThat(plan)
			.contains("Scan Backward using jobqueue_job_queue_finished_idx")
			.doesNotContain("Seq Scan on jobqueue_job")
			.doesNotContain("Bitmap"));
		ExplainedPlans.explainNoMore(jdbc);
	}

	private static NewJob job(int priority) {
		return new NewJob("default", "greet", "{}", 1, priority, null, Duration.ZERO, 3, null, null);
	}
}
