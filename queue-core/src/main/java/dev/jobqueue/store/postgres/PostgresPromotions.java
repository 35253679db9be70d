package dev.jobqueue.store.postgres;

import static dev.jobqueue.store.postgres.PostgresDialect.TRANSITIONS;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.store.PromotionStore;
import dev.jobqueue.store.postgres.support.PostgresReadyNotifier;

/**
 * Hands the slots of concurrency keys to blocked jobs through {@code jobqueue_promote} (V15), which takes each
 * key's lock, counts its slots after the lock is held, and promotes the first waiting jobs; the function's
 * comment says why it is safe across nodes. Promoted jobs have their queue notified like new ones, after the
 * promotion commits ({@link PostgresReadyNotifier}).
 */
final class PostgresPromotions implements PromotionStore {

	/**
	 * The keys one transaction promotes at most: the function holds an advisory lock per key until the commit, and
	 * the server's lock table has room for {@code max_locks_per_transaction} (64 by default) times its connections,
	 * shared by all of them.
	 */
	static final int KEYS_PER_TRANSACTION = 200;

	private final JdbcClient jdbc;

	/** Null when the store does not notify. */
	private final PostgresReadyNotifier notifier;

	/**
	 * A transaction of its own under READ COMMITTED, whatever the caller's: the function refuses any other
	 * isolation, and a promotion must see the write that freed the slot, committed just before.
	 */
	private final TransactionTemplate ownTransaction;

	PostgresPromotions(DataSource dataSource, JdbcClient jdbc, PostgresReadyNotifier notifier) {
		this.jdbc = jdbc;
		this.notifier = notifier;
		this.ownTransaction = new TransactionTemplate(new JdbcTransactionManager(dataSource));
		this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		this.ownTransaction.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
	}

	/**
	 * Commits asynchronously, as the claim and the batched completion do ({@code PostgresClaims}, {@code PostgresOutcomes}): one
	 * promotion follows every batch of finished keyed jobs, and its synchronous commit waited for a WAL flush
	 * each time, with the completions queued behind it on the WAL. A crash can lose the last promotions, which leaves their jobs blocked and their slots free, for the
	 * next sweep: nothing runs twice and no limit is exceeded. Whatever acted on a promotion (a claim of the
	 * job, the key's next promotion) committed after it, so its WAL record comes later and is never kept
	 * without it.
	 */
	@Override
	public Set<String> promote(Collection<String> keys) {
		List<String> sorted = List.copyOf(new TreeSet<>(keys));
		Set<String> queues = new LinkedHashSet<>();
		for (int first = 0; first < sorted.size(); first += KEYS_PER_TRANSACTION) {
			List<String> some = sorted.subList(first, Math.min(sorted.size(), first + KEYS_PER_TRANSACTION));
			queues.addAll(ownTransaction.execute(status -> notifyAfterCommit(jdbc.sql("""
					WITH async_commit AS (
					    SELECT set_config('synchronous_commit', 'off', true)
					)
					SELECT DISTINCT queue FROM jobqueue_promote(CAST(:keys AS text[])) AS queue CROSS JOIN async_commit""")
				.param("keys", some.toArray(String[]::new))
				.query(String.class)
				.set())));
		}
		return queues;
	}

	/**
	 * The keys come from the blocked index, one probe per key (a recursive walk that skips from one key to
	 * the next, since PostgreSQL has no skip scan, and stops after {@code maxKeys}), and only those with a free slot
	 * by a first, unlocked count go to the function, which counts again under the lock: a stretch over busy keys
	 * takes no lock.
	 */
	@Override
	public Stretch promoteWaiting(String after, int maxKeys) {
		List<Waiting> walked = jdbc.sql("""
				WITH RECURSIVE walked (concurrency_key, n) AS (
				    (SELECT concurrency_key, 1 FROM jobqueue_job WHERE state = 'blocked' AND concurrency_key > :after
				     ORDER BY concurrency_key LIMIT 1)
				    UNION ALL
				    SELECT (SELECT b.concurrency_key FROM jobqueue_job b
				            WHERE b.state = 'blocked' AND b.concurrency_key > w.concurrency_key
				            ORDER BY b.concurrency_key LIMIT 1), w.n + 1
				    FROM walked w WHERE w.concurrency_key IS NOT NULL AND w.n < :maxKeys
				)
				SELECT w.concurrency_key,
				       coalesce((SELECT count(*) FROM jobqueue_job h
				                 WHERE h.concurrency_key = w.concurrency_key
				                   AND %s)
				                < (SELECT b.concurrency_limit FROM jobqueue_job b
				                   WHERE b.state = 'blocked' AND b.concurrency_key = w.concurrency_key
				                   ORDER BY b.concurrency_key, b.id LIMIT 1), false) AS free_slot
				FROM walked w WHERE w.concurrency_key IS NOT NULL
				ORDER BY w.concurrency_key""".formatted(TRANSITIONS.holdsSlot("h")))
			.param("after", after)
			.param("maxKeys", maxKeys)
			.query((rs, row) -> new Waiting(rs.getString(1), rs.getBoolean(2)))
			.list();
		return Stretch.of(walked, maxKeys, this::promote);
	}

	/** Inside the transaction that promoted, so that the notification waits for its commit. */
	private Set<String> notifyAfterCommit(Set<String> queues) {
		if (notifier != null) {
			notifier.notifyAfterCommit(queues);
		}
		return queues;
	}
}
