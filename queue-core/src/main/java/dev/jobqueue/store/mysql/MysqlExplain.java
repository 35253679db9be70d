package dev.jobqueue.store.mysql;

import static dev.jobqueue.store.mysql.MysqlDialect.TRANSITIONS;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ExplainReads;
import dev.jobqueue.store.KeySlots;

/**
 * The reads behind {@code JobQueue.explain} on MySQL, as on PostgreSQL ({@code PostgresExplain}): each through an
 * index that holds the rows it asks about, never a scan of the table.
 */
final class MysqlExplain implements ExplainReads {

	/**
	 * Counted as {@link MysqlPromotions} counts: the first waiting job's limit and rate, the holders and the waiting
	 * jobs before this one through the key index (concurrency_key, key_state, id), where key_state is the state of
	 * a keyed job (V27); the recent starts apart from the holders, to be named apart.
	 */
	static final String KEY_SLOTS = """
			SELECT f.concurrency_limit, f.concurrency_rate_millis,
			       (SELECT count(*) FROM jobqueue_job h
			        WHERE h.concurrency_key = :key
			          AND %s) AS holders,
			       (SELECT count(*) FROM jobqueue_job b
			        WHERE b.concurrency_key = :key AND b.key_state = 'blocked' AND b.id < :id) AS waiting_before,
			       (SELECT count(*) FROM jobqueue_job s
			        WHERE s.concurrency_key = :key AND s.concurrency_rate_millis IS NOT NULL
			          AND s.key_started_at > UTC_TIMESTAMP(6) - INTERVAL f.concurrency_rate_millis * 1000 MICROSECOND
			          AND NOT %s)
			       AS recent_starts,
			       (SELECT min(s.key_started_at) FROM jobqueue_job s
			        WHERE s.concurrency_key = :key AND s.concurrency_rate_millis IS NOT NULL
			          AND s.key_started_at > UTC_TIMESTAMP(6) - INTERVAL f.concurrency_rate_millis * 1000 MICROSECOND
			          AND NOT %s)
			       AS oldest_recent_start
			FROM (SELECT concurrency_limit, concurrency_rate_millis FROM jobqueue_job
			      WHERE concurrency_key = :key AND key_state = 'blocked' ORDER BY id LIMIT 1) f""".formatted(
			TRANSITIONS.holdsSlot("h", "key_state"), TRANSITIONS.holdsSlot("s", "key_state"),
			TRANSITIONS.holdsSlot("s", "key_state"));

	static final String HOLDERS = """
			SELECT id FROM jobqueue_job
			WHERE concurrency_key = :key
			  AND %s
			ORDER BY id LIMIT :max""".formatted(TRANSITIONS.holdsSlot("", "key_state"));

	/** One row, by its primary key. */
	static final String HOLDS_SLOT = "SELECT count(*) FROM jobqueue_job WHERE id = :id AND concurrency_key IS NOT NULL"
			+ " AND " + TRANSITIONS.holdsSlot("");

	/** The claim index's order, as the claim walks it; the LIMIT bounds the walk for a job deep in a backlog. */
	static final String READY_AHEAD = """
			SELECT count(*) FROM (
			    SELECT 1 FROM jobqueue_job j JOIN jobqueue_job a ON a.queue = j.queue AND a.state = 'ready'
			    WHERE j.id = :id AND a.run_at <= UTC_TIMESTAMP(6)
			      AND (a.priority, a.run_at, a.id) < (j.priority, j.run_at, j.id)
			    LIMIT :cap) ahead""";

	/** Running rows are those with a lease expiry, which the reaper's index holds. */
	static final String RUNNING_BY_OWNER = """
			SELECT lease_owner, count(*) FROM jobqueue_job
			WHERE lease_expires_at IS NOT NULL AND state = 'running' AND queue = :queue GROUP BY lease_owner""";

	private final JdbcClient jdbc;

	MysqlExplain(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public Instant now() {
		return jdbc.sql("SELECT UTC_TIMESTAMP(6)").query(LocalDateTime.class).single().toInstant(ZoneOffset.UTC);
	}

	@Override
	public Optional<KeySlots> keySlots(String key, long id) {
		return jdbc.sql(KEY_SLOTS)
			.param("key", key)
			.param("id", id)
			.query((rs, row) -> {
				long rate = rs.getLong("concurrency_rate_millis");
				return new KeySlots(rs.getInt("concurrency_limit"), rs.wasNull() ? null : Duration.ofMillis(rate),
						List.of(), rs.getLong("holders"), rs.getLong("waiting_before"), rs.getLong("recent_starts"),
						MysqlRows.instant(rs, "oldest_recent_start"));
			})
			.optional()
			.map(slots -> slots.withHolders(holders(key)));
	}

	private List<Long> holders(String key) {
		return jdbc.sql(HOLDERS).param("key", key).param("max", KeySlots.MAX_HOLDERS).query(Long.class).list();
	}

	@Override
	public boolean holdsSlot(long id) {
		return jdbc.sql(HOLDS_SLOT).param("id", id).query(Long.class).single() > 0;
	}

	@Override
	public long readyAhead(long id, int cap) {
		return jdbc.sql(READY_AHEAD).param("id", id).param("cap", cap).query(Long.class).single();
	}

	@Override
	public Map<String, Integer> runningByOwner(String queue) {
		Map<String, Integer> running = new TreeMap<>();
		jdbc.sql(RUNNING_BY_OWNER).param("queue", queue).query(rs -> {
			running.put(rs.getString(1), rs.getInt(2));
		});
		return running;
	}
}
