package dev.jobqueue.store.mysql;

import static dev.jobqueue.store.mysql.MysqlDialect.TRANSITIONS;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.PromotionStore;
import dev.jobqueue.store.mysql.support.MysqlTransactions;

/**
 * Hands the slots of concurrency keys to blocked jobs, by the rule of the other databases: a key's slots are held by
 * its ready and running jobs (and dead ones that hold theirs), the first waiting job's limit says how many there
 * are, the first enqueued go first, and a key with a rate also counts the jobs that started within its period and
 * does not promote a waiting job that did (V17 elsewhere).
 *
 * <p>Promotions of one key are serialized by the row lock of the key's row in {@code jobqueue_key} (V29), where
 * PostgreSQL takes an advisory lock: every promotion of the key starts by locking it, so a second one waits until
 * the first commits, then (READ COMMITTED) passes over the rows the first promoted and counts the slots afresh.
 * The row holds the key alone; slots are counted from the job rows. Each key is a transaction of its own, in key
 * order, so a promotion holds the locks of one key at a time: its row's, then its jobs' in id order.
 *
 * <p>A key's rows are read by {@code key_state} and {@code key_started_at}, the state and start time of keyed jobs
 * only (NULL for unkeyed ones, V27), which the key indexes hold: for {@code concurrency_key = :key} they are the
 * row's state and start time.
 */
final class MysqlPromotions implements PromotionStore {

	/**
	 * The key's lock: its row, inserted by the key's first promotion, locked for update by every one. ON DUPLICATE
	 * KEY UPDATE, as it locks the row it meets for update at once: INSERT IGNORE takes a shared lock, which two
	 * promotions can hold together, and then each waits for the other to lock the row for update, a deadlock.
	 */
	private static final String LOCK_KEY = """
			INSERT INTO jobqueue_key (concurrency_key) VALUES (:key)
			ON DUPLICATE KEY UPDATE concurrency_key = concurrency_key""";

	/**
	 * The key's first waiting job, locked: its limit and rate are the key's. Locked although the key's row
	 * serializes promotions, for nodes built for schema version 28, which serialize them by this row alone:
	 * during a rolling deploy theirs and these still wait for each other. FORCE INDEX, here and in the promotable
	 * rows' read: for ORDER BY id LIMIT 1 the optimizer may prefer to walk the primary key in id order, and a
	 * locking read waits for every row it walks, matching or not; it waited for the rows of other keys that their
	 * own promotions held, and two such promotions deadlocked. On the key index the read walks, and locks, the
	 * key's own waiting rows only.
	 */
	private static final String FIRST_WAITING = """
			SELECT concurrency_limit, concurrency_rate_millis FROM jobqueue_job FORCE INDEX (jobqueue_job_key_idx)
			WHERE concurrency_key = :key AND key_state = 'blocked'
			ORDER BY id
			LIMIT 1
			FOR UPDATE""";

	/** The slots held, by the first waiting job's rate: holders and, for a rate, the jobs started within it. */
	private static final String HELD = """
			SELECT count(*) FROM jobqueue_job
			WHERE concurrency_key = :key
			  AND (%s
			       OR (:rateMillis IS NOT NULL AND concurrency_rate_millis IS NOT NULL
			           AND key_started_at > UTC_TIMESTAMP(6) - INTERVAL :rateMillis * 1000 MICROSECOND))""".formatted(
			TRANSITIONS.holdsSlot("", "key_state"));

	private static final String PROMOTABLE = """
			SELECT id, queue FROM jobqueue_job FORCE INDEX (jobqueue_job_key_idx)
			WHERE concurrency_key = :key AND key_state = 'blocked'
			  AND NOT (:rateMillis IS NOT NULL AND key_started_at IS NOT NULL
			           AND key_started_at > UTC_TIMESTAMP(6) - INTERVAL :rateMillis * 1000 MICROSECOND)
			ORDER BY id
			LIMIT :free
			FOR UPDATE""";

	private final JdbcClient jdbc;

	private final MysqlTransactions transactions;

	MysqlPromotions(JdbcClient jdbc, MysqlTransactions transactions) {
		this.jdbc = jdbc;
		this.transactions = transactions;
	}

	@Override
	public Set<String> promote(Collection<String> keys) {
		Set<String> queues = new LinkedHashSet<>();
		for (String key : new TreeSet<>(keys)) {
			queues.addAll(transactions.runOwn(() -> promoteKey(key)));
		}
		return queues;
	}

	/**
	 * The next keys with blocked jobs, in key order, and, by a first count that takes no lock, whether each has a
	 * free slot; those that have are then promoted as {@link #promote} does, counting again under the key's lock. A
	 * stretch over busy keys locks nothing.
	 */
	@Override
	public Stretch promoteWaiting(String after, int maxKeys) {
		List<Waiting> walked = jdbc.sql("""
				SELECT w.concurrency_key,
				       coalesce((SELECT count(*) FROM jobqueue_job h
				                 WHERE h.concurrency_key = w.concurrency_key
				                   AND %s)
				                < (SELECT b.concurrency_limit FROM jobqueue_job b
				                   WHERE b.concurrency_key = w.concurrency_key AND b.key_state = 'blocked'
				                   ORDER BY b.id LIMIT 1), FALSE)
				FROM (SELECT DISTINCT concurrency_key FROM jobqueue_job
				      WHERE key_state = 'blocked' AND concurrency_key > :after
				      ORDER BY concurrency_key LIMIT :maxKeys) w
				ORDER BY w.concurrency_key""".formatted(TRANSITIONS.holdsSlot("h", "key_state")))
			.param("after", after)
			.param("maxKeys", maxKeys)
			.query((rs, row) -> new Waiting(rs.getString(1), rs.getBoolean(2)))
			.list();
		return Stretch.of(walked, maxKeys, this::promote);
	}

	private List<String> promoteKey(String key) {
		jdbc.sql(LOCK_KEY).param("key", key).update();
		Optional<Slots> first = jdbc.sql(FIRST_WAITING)
			.param("key", key)
			.query((rs, row) -> new Slots(rs.getInt(1), rs.getObject(2, Long.class)))
			.optional();
		if (first.isEmpty()) {
			return List.of();
		}
		Long rate = first.get().rateMillis();
		long held = jdbc.sql(HELD).param("key", key).param("rateMillis", rate).query(Long.class).single();
		long free = first.get().limit() - held;
		if (free <= 0) {
			return List.of();
		}
		List<Promoted> promoted = jdbc.sql(PROMOTABLE)
			.param("key", key)
			.param("rateMillis", rate)
			.param("free", free)
			.query((rs, row) -> new Promoted(rs.getLong("id"), rs.getString("queue")))
			.list();
		if (promoted.isEmpty()) {
			return List.of();
		}
		// A promoted job joins the back of the ready line: due now at the earliest.
		jdbc.sql("""
				UPDATE jobqueue_job SET state = 'ready', run_at = GREATEST(run_at, UTC_TIMESTAMP(6))
				WHERE id IN (:ids)""")
			.param("ids", promoted.stream().map(Promoted::id).toList())
			.update();
		return promoted.stream().map(Promoted::queue).distinct().toList();
	}

	private record Slots(int limit, Long rateMillis) {
	}

	private record Promoted(long id, String queue) {
	}
}
