package dev.jobqueue.postgres;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.OnePostgresSession;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A completion is the queue's hottest write, and its new row version gets an entry in every index whose
 * predicate it meets. A succeeded completion meets one index of finished rows only, {@code (queue, state,
 * finished_at)}: the (state, id) index holds cancelled and dead jobs, so succeeded ones never write to it, and the
 * unique keys' index takes a succeeded job only when it has a key it holds also once succeeded. Told
 * apart by the indexes' size on a table just emptied: a B-tree with no entry is its metapage alone.
 */
class PostgresFinishedIndexEntriesTest {

	private static final long ONE_PAGE = 8_192;

	@RegisterExtension
	static final OnePostgresSession postgres = new OnePostgresSession();

	private final JdbcClient jdbc = JdbcClient.create(postgres.session());

	private final JobStore store = PostgresDialect.jobStore(postgres.session());

	@Test
	void succeededCompletionsWriteToOneIndexOfFinishedRowsAndNeverToTheCancelledAndDeadIndex() {
		postgres.database().reset();
		store.enqueues().enqueueAll(IntStream.range(0, 1_001).mapToObj(i -> job()).toList());
		List<ClaimedJob> claimed = store.claims().claim("default", Map.of("greet", 1), 1_000, "owner", Duration.ofMinutes(1),
				false);

		assertThat(store.outcomes().completeAll(claimed.stream().map(job -> new Completion(job.lease(), null)).toList())).isEmpty();

		assertThat(size("jobqueue_job_queue_finished_idx")).isGreaterThan(ONE_PAGE);
		assertThat(jdbc.sql("""
				SELECT indexname FROM pg_indexes
				WHERE schemaname = current_schema() AND tablename = 'jobqueue_job' AND indexdef LIKE '%succeeded%'""")
			.query(String.class)
			.list()).as("the indexes a succeeded row may enter")
			.containsExactlyInAnyOrder("jobqueue_job_queue_finished_idx", "jobqueue_job_kind_unique_key_idx");
		assertThat(size("jobqueue_job_cancelled_dead_idx")).isEqualTo(ONE_PAGE);
		assertThat(size("jobqueue_job_kind_unique_key_idx")).as("entered only by a job with a key held once succeeded")
			.isEqualTo(ONE_PAGE);

		long ready = jdbc.sql("SELECT id FROM jobqueue_job WHERE state = 'ready'").query(Long.class).single();
		assertThat(store.writes().cancelAll(List.of(ready))).hasSize(1);

		assertThat(size("jobqueue_job_cancelled_dead_idx")).isGreaterThan(ONE_PAGE);
	}

	private long size(String index) {
		return jdbc.sql("SELECT pg_relation_size(CAST(:index AS regclass))")
			.param("index", index)
			.query(Long.class)
			.single();
	}

	private static NewJob job() {
		return new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, null);
	}
}
