package dev.jobqueue.store.sqlite;

import static dev.jobqueue.store.sqlite.SqliteDialect.TRANSITIONS;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.store.PromotionStore;
import dev.jobqueue.store.sqlite.support.SqliteQueueDataSource;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/**
 * Hands the slots of concurrency keys to blocked jobs. SQLite has one writer at a time, so the count of a
 * key's slots and the promotion in the same write cannot race with another promotion: no lock of ours is
 * needed, as PostgreSQL's advisory lock is (V15). Same rule as there: a key's slots are held by its ready and
 * running jobs (and dead ones that hold theirs), the first waiting job's limit says how many there are, the
 * first enqueued go first, and a promoted job joins the back of the ready line. A key with a rate also counts
 * the jobs that started within its period, and does not promote a waiting job that did (V17). A key with
 * nothing waiting has no first limit; the {@code coalesce} makes its LIMIT 0, where SQLite would refuse a LIMIT
 * of null (a datatype mismatch) and roll back the promotions of every key asked for with it.
 */
final class SqlitePromotions implements PromotionStore {

	/**
	 * The period of the key's rate, from its first waiting job, or null: then no start is recent, and
	 * {@code started_at > now - null} holds for no row.
	 */
	private static final String FIRST_RATE = """
			SELECT concurrency_rate_millis FROM jobqueue_job WHERE state = 'blocked' AND concurrency_key = :key
			ORDER BY id LIMIT 1""";

	private static final String PROMOTE = """
			UPDATE jobqueue_job
			SET state = 'ready', run_at = max(run_at, CAST(round(unixepoch('subsec') * 1000) AS INTEGER))
			WHERE id IN (
			    SELECT id FROM jobqueue_job
			    WHERE state = 'blocked' AND concurrency_key = :key
			      AND coalesce(started_at > CAST(round(unixepoch('subsec') * 1000) AS INTEGER) - (%1$s), 0) = 0
			    ORDER BY id
			    LIMIT max(0,
			        coalesce((SELECT concurrency_limit FROM jobqueue_job
			                  WHERE state = 'blocked' AND concurrency_key = :key ORDER BY id LIMIT 1), 0)
			        - (SELECT count(*) FROM jobqueue_job
			           WHERE concurrency_key = :key
			             AND (%2$s
			                  OR (concurrency_rate_millis IS NOT NULL
			                      AND started_at > CAST(round(unixepoch('subsec') * 1000) AS INTEGER) - (%1$s))))))
			RETURNING queue""".formatted(FIRST_RATE, TRANSITIONS.holdsSlot(""));

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	/** A transaction of its own (an immediate one, on the queue's connections), whatever the caller's. */
	private final TransactionTemplate ownTransaction;

	SqlitePromotions(SqliteQueueDataSource dataSource, JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
		this.ownTransaction = new TransactionTemplate(new JdbcTransactionManager(dataSource));
		this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	@Override
	public Set<String> promote(Collection<String> keys) {
		if (keys.isEmpty()) {
			return Set.of();
		}
		return ownTransaction.execute(status -> promoteEach(keys));
	}

	/**
	 * The next keys with blocked jobs, in the order of the blocked index, and, by the same count as the promotion's,
	 * whether each has a free slot; those that have are promoted, each in one write.
	 */
	@Override
	public Stretch promoteWaiting(String after, int maxKeys) {
		List<Waiting> walked = statements.read("keys with free slots", () -> jdbc.sql("""
				SELECT w.concurrency_key,
				       (SELECT count(*) FROM jobqueue_job h
				        WHERE h.concurrency_key = w.concurrency_key
				          AND (%s
				               OR (h.concurrency_rate_millis IS NOT NULL
				                   AND h.started_at > CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
				                                      - (SELECT b.concurrency_rate_millis FROM jobqueue_job b
				                                         WHERE b.state = 'blocked' AND b.concurrency_key = w.concurrency_key
				                                         ORDER BY b.id LIMIT 1))))
				       < (SELECT b.concurrency_limit FROM jobqueue_job b
				          WHERE b.state = 'blocked' AND b.concurrency_key = w.concurrency_key ORDER BY b.id LIMIT 1)
				FROM (SELECT DISTINCT concurrency_key FROM jobqueue_job
				      WHERE state = 'blocked' AND concurrency_key > :after
				      ORDER BY concurrency_key LIMIT :maxKeys) w
				ORDER BY w.concurrency_key""".formatted(TRANSITIONS.holdsSlot("h")))
			.param("after", after)
			.param("maxKeys", maxKeys)
			.query((rs, row) -> new Waiting(rs.getString(1), rs.getBoolean(2)))
			.list());
		return Stretch.of(walked, maxKeys, free -> statements.write("promote", () -> promoteEach(free)));
	}

	private Set<String> promoteEach(Collection<String> keys) {
		Set<String> queues = new LinkedHashSet<>();
		for (String key : new LinkedHashSet<>(keys)) {
			queues.addAll(jdbc.sql(PROMOTE).param("key", key).query(String.class).list());
		}
		return queues;
	}
}
