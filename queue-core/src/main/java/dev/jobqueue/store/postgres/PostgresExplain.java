package dev.jobqueue.store.postgres;

import static dev.jobqueue.store.postgres.PostgresDialect.TRANSITIONS;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ExplainReads;
import dev.jobqueue.store.KeySlots;

/**
 * The reads behind {@code JobQueue.explain} on PostgreSQL: each through the partial index that holds the rows it
 * asks about, so that explaining one job never scans the table's finished rows.
 */
final class PostgresExplain implements ExplainReads {

	private final JdbcClient jdbc;

	PostgresExplain(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public Instant now() {
		return jdbc.sql("SELECT now()").query((rs, row) -> PostgresRows.instant(rs, 1)).single();
	}

	/**
	 * Counted as jobqueue_promote counts (V23): the first waiting job's limit and rate, the holders through the
	 * slot index, recent starts through the rate index, the waiting jobs before this one through the blocked index.
	 */
	@Override
	public Optional<KeySlots> keySlots(String key, long id) {
		return jdbc.sql("""
				SELECT f.concurrency_limit, f.concurrency_rate_millis,
				       (SELECT count(*) FROM jobqueue_job h
				        WHERE h.concurrency_key = :key
				          AND %s) AS holders,
				       (SELECT count(*) FROM jobqueue_job b
				        WHERE b.state = 'blocked' AND b.concurrency_key = :key AND b.id < :id) AS waiting_before,
				       r.recent_starts, r.oldest_recent_start
				FROM (SELECT concurrency_limit, concurrency_rate_millis FROM jobqueue_job
				      WHERE state = 'blocked' AND concurrency_key = :key ORDER BY concurrency_key, id LIMIT 1) f
				CROSS JOIN LATERAL (
				    SELECT count(*) AS recent_starts, min(s.started_at) AS oldest_recent_start FROM jobqueue_job s
				    WHERE f.concurrency_rate_millis IS NOT NULL AND s.concurrency_key = :key
				      AND s.concurrency_rate_millis IS NOT NULL
				      AND s.started_at > now() - f.concurrency_rate_millis * interval '1 millisecond'
				      AND NOT %s) r""".formatted(TRANSITIONS.holdsSlot("h"), TRANSITIONS.holdsSlot("s")))
			.param("key", key)
			.param("id", id)
			.query((rs, row) -> {
				long rate = rs.getLong("concurrency_rate_millis");
				return new KeySlots(rs.getInt("concurrency_limit"), rs.wasNull() ? null : Duration.ofMillis(rate),
						List.of(), rs.getLong("holders"), rs.getLong("waiting_before"), rs.getLong("recent_starts"),
						PostgresRows.instant(rs, "oldest_recent_start"));
			})
			.optional()
			// Named after the counts, not in their row mapper: that would ask for a second connection while the
			// first still holds the counts' result.
			.map(slots -> slots.withHolders(holders(key)));
	}

	private List<Long> holders(String key) {
		return jdbc.sql("""
				SELECT id FROM jobqueue_job
				WHERE concurrency_key = :key
				  AND %s
				ORDER BY id LIMIT :max""".formatted(TRANSITIONS.holdsSlot("")))
			.param("key", key)
			.param("max", KeySlots.MAX_HOLDERS)
			.query(Long.class)
			.list();
	}

	@Override
	public boolean holdsSlot(long id) {
		return jdbc.sql("SELECT count(*) FROM jobqueue_job WHERE id = :id AND concurrency_key IS NOT NULL AND "
				+ TRANSITIONS.holdsSlot(""))
			.param("id", id)
			.query(Long.class)
			.single() > 0;
	}

	/**
	 * The row comparison in the ready index's order walks that index from the queue's first entry to the job's,
	 * and the LIMIT bounds the walk for a job deep in a backlog.
	 */
	@Override
	public long readyAhead(long id, int cap) {
		return jdbc.sql("""
				SELECT count(*) FROM (
				    SELECT 1 FROM jobqueue_job a, jobqueue_job j
				    WHERE j.id = :id AND a.state = 'ready' AND a.queue = j.queue AND a.run_at <= now()
				      AND (a.priority, a.run_at, a.id) < (j.priority, j.run_at, j.id)
				    LIMIT :cap) ahead""")
			.param("id", id)
			.param("cap", cap)
			.query(Long.class)
			.single();
	}

	/** Running rows are those with a lease expiry, which the reaper's index holds. */
	@Override
	public Map<String, Integer> runningByOwner(String queue) {
		Map<String, Integer> running = new TreeMap<>();
		jdbc.sql("""
				SELECT lease_owner, count(*) FROM jobqueue_job
				WHERE lease_expires_at IS NOT NULL AND state = 'running' AND queue = :queue GROUP BY lease_owner""")
			.param("queue", queue)
			.query(rs -> {
				running.put(rs.getString(1), rs.getInt(2));
			});
		return running;
	}
}
