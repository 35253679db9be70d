package dev.jobqueue.store.sqlite;

import static dev.jobqueue.store.sqlite.SqliteDialect.TRANSITIONS;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ExplainReads;
import dev.jobqueue.store.KeySlots;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/**
 * The reads behind {@code JobQueue.explain} on SQLite, as on PostgreSQL ({@code PostgresExplain}): each through the
 * partial index that holds the rows it asks about ({@code SqliteQueryPlanTest}), never a scan of the table.
 */
final class SqliteExplain implements ExplainReads {

	/**
	 * Counted as SqlitePromotions counts: the first waiting job's limit and rate, the holders through the slot index,
	 * the waiting jobs before this one through the blocked index; the recent starts apart from the holders, to be
	 * named apart.
	 */
	static final String KEY_SLOTS = """
			SELECT f.concurrency_limit, f.concurrency_rate_millis,
			       (SELECT count(*) FROM jobqueue_job h
			        WHERE h.concurrency_key = :key
			          AND %s) AS holders,
			       (SELECT count(*) FROM jobqueue_job b
			        WHERE b.state = 'blocked' AND b.concurrency_key = :key AND b.id < :id) AS waiting_before,
			       (SELECT count(*) FROM jobqueue_job s
			        WHERE s.concurrency_key = :key AND s.concurrency_rate_millis IS NOT NULL
			          AND s.started_at > CAST(round(unixepoch('subsec') * 1000) AS INTEGER) - f.concurrency_rate_millis
			          AND NOT %s)
			       AS recent_starts,
			       (SELECT min(s.started_at) FROM jobqueue_job s
			        WHERE s.concurrency_key = :key AND s.concurrency_rate_millis IS NOT NULL
			          AND s.started_at > CAST(round(unixepoch('subsec') * 1000) AS INTEGER) - f.concurrency_rate_millis
			          AND NOT %s)
			       AS oldest_recent_start
			FROM (SELECT concurrency_limit, concurrency_rate_millis FROM jobqueue_job
			      WHERE state = 'blocked' AND concurrency_key = :key ORDER BY id LIMIT 1) f""".formatted(
			TRANSITIONS.holdsSlot("h"), TRANSITIONS.holdsSlot("s"), TRANSITIONS.holdsSlot("s"));

	static final String HOLDERS = """
			SELECT id FROM jobqueue_job
			WHERE concurrency_key = :key
			  AND %s
			ORDER BY id LIMIT :max""".formatted(TRANSITIONS.holdsSlot(""));

	/** One row, by its primary key. */
	static final String HOLDS_SLOT = "SELECT count(*) FROM jobqueue_job WHERE id = :id AND concurrency_key IS NOT NULL"
			+ " AND " + TRANSITIONS.holdsSlot("");

	/** The ready index's order, as the claim walks it; the LIMIT bounds the walk for a job deep in a backlog. */
	static final String READY_AHEAD = """
			SELECT count(*) FROM (
			    SELECT 1 FROM jobqueue_job j JOIN jobqueue_job a ON a.queue = j.queue
			    WHERE j.id = :id AND a.state = 'ready' AND a.run_at <= CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
			      AND (a.priority, a.run_at, a.id) < (j.priority, j.run_at, j.id)
			    LIMIT :cap)""";

	/** Running rows are those with a lease expiry, which the reaper's index holds. */
	static final String RUNNING_BY_OWNER = """
			SELECT lease_owner, count(*) FROM jobqueue_job
			WHERE lease_expires_at IS NOT NULL AND state = 'running' AND queue = :queue GROUP BY lease_owner""";

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteExplain(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	@Override
	public Instant now() {
		return Instant.ofEpochMilli(statements.read("now",
				() -> jdbc.sql("SELECT CAST(round(unixepoch('subsec') * 1000) AS INTEGER)").query(Long.class).single()));
	}

	@Override
	public Optional<KeySlots> keySlots(String key, long id) {
		return statements.read("key slots", () -> jdbc.sql(KEY_SLOTS)
			.param("key", key)
			.param("id", id)
			.query((rs, row) -> {
				long rate = rs.getLong("concurrency_rate_millis");
				return new KeySlots(rs.getInt("concurrency_limit"), rs.wasNull() ? null : Duration.ofMillis(rate),
						List.of(), rs.getLong("holders"), rs.getLong("waiting_before"), rs.getLong("recent_starts"),
						SqliteRows.instant(rs, "oldest_recent_start"));
			})
			.optional()
			// Named after the counts, not in their row mapper, which would read on a second connection.
			.map(slots -> slots.withHolders(holders(key))));
	}

	private List<Long> holders(String key) {
		return jdbc.sql(HOLDERS).param("key", key).param("max", KeySlots.MAX_HOLDERS).query(Long.class).list();
	}

	@Override
	public boolean holdsSlot(long id) {
		return statements.read("holds slot",
				() -> jdbc.sql(HOLDS_SLOT).param("id", id).query(Long.class).single()) > 0;
	}

	@Override
	public long readyAhead(long id, int cap) {
		return statements.read("ready ahead",
				() -> jdbc.sql(READY_AHEAD).param("id", id).param("cap", cap).query(Long.class).single());
	}

	@Override
	public Map<String, Integer> runningByOwner(String queue) {
		return statements.read("running by owner", () -> {
			Map<String, Integer> running = new TreeMap<>();
			jdbc.sql(RUNNING_BY_OWNER).param("queue", queue).query(rs -> {
				running.put(rs.getString(1), rs.getInt(2));
			});
			return running;
		});
	}
}
