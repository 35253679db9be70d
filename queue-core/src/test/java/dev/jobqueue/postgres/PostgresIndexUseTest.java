package dev.jobqueue.postgres;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobState;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.PauseScope;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.OnePostgresSession;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Once the table's statistics say that running rows are rare, as they are on a busy queue, the batched
 * completion and the heartbeat still look their rows up by id: they never scan the reaper's index of
 * running rows, whose dead entries pile up between vacuums. And the counts of ready and running jobs,
 * which the gauges ask for every few seconds, read the partial indexes, never the whole table; the
 * pruner reads only the finished rows past their retention; the next due time, asked by every idle poller
 * at every pass, reads one entry of the ready index per priority. The claim reads the pause table once per
 * statement, however many rows it passes over, and the claim of a paused queue reads no index entry at all.
 */
class PostgresIndexUseTest {

	@RegisterExtension
	static final OnePostgresSession postgres = new OnePostgresSession();

	private final JdbcClient jdbc = JdbcClient.create(postgres.session());

	private final JobStore store = PostgresDialect.jobStore(postgres.session());

	@Test
	void completionsAndHeartbeatsLeaveTheReapersIndexAloneWhenRunningRowsAreRare() {
		postgres.database().reset();
		store.enqueues().enqueueAll(IntStream.range(0, 3_000).mapToObj(i -> job()).toList());
		completeAll(store.claims().claim("default", Map.of("greet", 1), 2_000, "owner", Duration.ofMinutes(1), false));
		List<ClaimedJob> running = store.claims().claim("default", Map.of("greet", 1), 20, "owner", Duration.ofMinutes(1),
				false);
		jdbc.sql("ANALYZE jobqueue_job").update();
		long before = indexUse("jobqueue_job_lease_idx").scans();

		assertThat(store.claims().heartbeat("owner", running.subList(10, 20).stream().map(ClaimedJob::lease).toList(),
				Duration.ofMinutes(1))).hasSize(10);
		completeAll(running.subList(0, 10));

		assertThat(indexUse("jobqueue_job_lease_idx").scans()).isEqualTo(before);
		assertThat(jdbc.sql("SELECT count(*) FROM jobqueue_job WHERE state = 'succeeded'").query(Long.class).single())
			.isEqualTo(2_010);
	}

	@Test
	void theUnfinishedCountsReadThePartialIndexesAndNeverScanTheTable() {
		postgres.database().reset();
		store.enqueues().enqueueAll(IntStream.range(0, 3_000).mapToObj(i -> job()).toList());
		completeAll(store.claims().claim("default", Map.of("greet", 1), 2_980, "owner", Duration.ofMinutes(1), false));
		store.claims().claim("default", Map.of("greet", 1), 5, "owner", Duration.ofMinutes(1), false);
		jdbc.sql("ANALYZE jobqueue_job").update();
		long before = tableScans();

		assertThat(store.telemetry().countUnfinishedByQueue())
			.isEqualTo(Map.of("default", Map.of(JobState.ready, 15L, JobState.running, 5L)));

		assertThat(tableScans()).isEqualTo(before);
	}

	@Test
	void theNextDueTimeReadsAFewEntriesOfTheReadyIndexWhateverTheBacklog() {
		postgres.database().reset();
		store.enqueues().enqueueAll(IntStream.range(0, 3_000)
			.mapToObj(i -> new NewJob("default", "greet", "{}", 1, i % 10, null, Duration.ofSeconds(1 + i % 50), 3, null))
			.toList());
		jdbc.sql("ANALYZE jobqueue_job").update();
		long tableScans = tableScans();
		long indexEntriesRead = indexUse("jobqueue_job_ready_idx").entriesRead();

		assertThat(store.claims().nextDueWithin("default", Map.of("greet", 1), Duration.ofMinutes(1)))
			.hasValueSatisfying(due -> assertThat(due).isBetween(Duration.ZERO, Duration.ofSeconds(1)));

		assertThat(tableScans()).isEqualTo(tableScans);
		// One entry per priority: the earliest of each, never the 3,000 behind them.
		assertThat(indexUse("jobqueue_job_ready_idx").entriesRead() - indexEntriesRead).isLessThanOrEqualTo(20);
	}

	@Test
	void thePrunerReadsOnlyTheFinishedRowsPastTheShorterRetentionAndLooksItsBatchUpById() {
		postgres.database().reset();
		store.enqueues().enqueueAll(IntStream.range(0, 3_000).mapToObj(i -> job()).toList());
		completeAll(store.claims().claim("default", Map.of("greet", 1), 3_000, "owner", Duration.ofMinutes(1), false));
		jdbc.sql("""
				UPDATE jobqueue_job SET finished_at = now() - interval '2 days'
				WHERE id IN (SELECT id FROM jobqueue_job ORDER BY id LIMIT 100)""").update();
		jdbc.sql("ANALYZE jobqueue_job").update();
		jdbc.sql("SET plan_cache_mode = force_generic_plan").update();
		try {
			long tableScans = tableScans();
			long indexEntriesRead = indexUse("jobqueue_job_queue_finished_idx").entriesRead();

			assertThat(store.maintenance().prune(Duration.ofDays(1), Duration.ofDays(14), 1_000)).isEqualTo(100);
			assertThat(store.maintenance().prune(Duration.ofDays(1), Duration.ofDays(14), 1_000)).isZero();

			assertThat(tableScans()).isEqualTo(tableScans);
			// The 100 entries past the retention, read by the first pass; dead, twice by the second, whose loose scan
			// of the queues steps over them to the queue's first live entry; never the 2,900 finished within the day.
			assertThat(indexUse("jobqueue_job_queue_finished_idx").entriesRead() - indexEntriesRead)
				.isLessThanOrEqualTo(310);
		}
		finally {
			jdbc.sql("RESET plan_cache_mode").update();
		}
	}

	@Test
	void theClaimReadsThePausesOncePerStatementAndAPausedQueuesClaimReadsNoIndexEntry() {
		postgres.database().reset();
		store.enqueues().enqueueAll(IntStream.range(0, 3_000)
			.mapToObj(i -> new NewJob("default", i % 2 == 0 ? "greet" : "welcome", "{}", 1, 5, null, Duration.ZERO, 3, null))
			.toList());
		jdbc.sql("ANALYZE jobqueue_job").update();
		Map<String, Integer> served = Map.of("greet", 1, "welcome", 1);
		store.pauses().pause(PauseScope.kind, "welcome");
		long pauseReads = pauseTableReads();

		assertThat(store.claims().claim("default", served, 100, "owner", Duration.ofMinutes(1), false)).hasSize(100)
			.allSatisfy(job -> assertThat(job.kind()).isEqualTo("greet"));

		// One read for the queue's pause, one for the paused kinds: not one per row passed over.
		assertThat(pauseTableReads() - pauseReads).isLessThanOrEqualTo(2);
		store.pauses().pause(PauseScope.queue, "default");
		long readyEntriesRead = indexUse("jobqueue_job_ready_idx").entriesRead();
		assertThat(store.claims().claim("default", served, 100, "owner", Duration.ofMinutes(1), false)).isEmpty();
		assertThat(store.claims().nextDueWithin("default", served, Duration.ofMinutes(1))).isEmpty();
		assertThat(indexUse("jobqueue_job_ready_idx").entriesRead()).isEqualTo(readyEntriesRead);
	}

	private long pauseTableReads() {
		flushStatistics();
		return jdbc.sql("""
				SELECT seq_scan + COALESCE(idx_scan, 0) FROM pg_stat_user_tables
				WHERE relid = CAST('jobqueue_pause' AS regclass)""")
			.query(Long.class)
			.single();
	}

	private void completeAll(List<ClaimedJob> jobs) {
		assertThat(store.outcomes().completeAll(jobs.stream().map(job -> new Completion(job.lease(), null)).toList())).isEmpty();
	}

	private IndexUse indexUse(String index) {
		flushStatistics();
		return jdbc.sql("SELECT idx_scan, idx_tup_read FROM pg_stat_user_indexes WHERE indexrelid = CAST(:index AS regclass)")
			.param("index", index)
			.query((rs, n) -> new IndexUse(rs.getLong(1), rs.getLong(2)))
			.single();
	}

	private record IndexUse(long scans, long entriesRead) {
	}

	private long tableScans() {
		flushStatistics();
		return jdbc.sql("SELECT seq_scan FROM pg_stat_user_tables WHERE relid = CAST('jobqueue_job' AS regclass)")
			.query(Long.class)
			.single();
	}

	private void flushStatistics() {
		jdbc.sql("SELECT pg_stat_force_next_flush()").query((rs, n) -> 1).list();
		jdbc.sql("SELECT pg_stat_clear_snapshot()").query((rs, n) -> 1).list();
	}

	private static NewJob job() {
		return new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, null);
	}
}
