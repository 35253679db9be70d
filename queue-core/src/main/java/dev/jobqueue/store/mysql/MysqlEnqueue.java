package dev.jobqueue.store.mysql;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.store.BatchTransactions;
import dev.jobqueue.store.NewJob;

/**
 * Enqueue statements on MySQL. MySQL has no {@code ON CONFLICT … DO NOTHING} that names one index, and
 * {@code INSERT IGNORE} would turn every other refusal (a CHECK, a trigger) into a warning: the insert is plain,
 * and the duplicate it may meet on the unique-key index ({@code unfinished_unique_key}, V26) is caught. A failed
 * statement on MySQL rolls back itself only, so the caller's transaction goes on.
 */
final class MysqlEnqueue {

	private static final String INSERT = """
			INSERT INTO jobqueue_job (queue, kind, payload, payload_version, state, priority, run_at, max_attempts,
			                          unique_key, created_at, concurrency_key, concurrency_limit, concurrency_dead_holds,
			                          concurrency_rate_millis, trace_context)
			VALUES (:queue, :kind, :payload, :payloadVersion, :state, :priority,
			        COALESCE(:runAt, UTC_TIMESTAMP(6) + INTERVAL :delayMicros MICROSECOND), :maxAttempts, :uniqueKey,
			        UTC_TIMESTAMP(6), :concurrencyKey, :concurrencyLimit, :deadHolds, :rateMillis, :traceContext)""";

	private final JdbcClient jdbc;

	private final NamedParameterJdbcTemplate named;

	private final BatchTransactions transactions;

	MysqlEnqueue(JdbcClient jdbc, NamedParameterJdbcTemplate named, BatchTransactions transactions) {
		this.jdbc = jdbc;
		this.named = named;
		this.transactions = transactions;
	}

	EnqueueResult enqueue(NewJob job) {
		while (true) {
			try {
				KeyHolder keys = new GeneratedKeyHolder();
				jdbc.sql(INSERT).paramSource(params(job)).update(keys);
				return new EnqueueResult(keys.getKey().longValue(), true);
			}
			catch (DuplicateKeyException duplicate) {
				Optional<Long> existing = findUnfinishedByUniqueKey(job.kind(), job.uniqueKey());
				// The holder of the key may have finished between the two statements: then the insert can win.
				if (existing.isPresent()) {
					return new EnqueueResult(existing.get(), false);
				}
			}
		}
	}

	/**
	 * All or nothing through {@link BatchTransactions}. Jobs without a unique key go in as one JDBC batch per run
	 * of them, which the driver sends without waiting for each answer (MariaDB Connector/J pipelines it, MySQL
	 * Connector/J rewrites it to a multi-row insert with {@code rewriteBatchedStatements=true}); a job with a
	 * unique key goes in alone, as it may meet its holder. Runs keep the given order, so ids grow in it too.
	 */
	List<EnqueueResult> enqueueAll(List<NewJob> jobs) {
		if (jobs.isEmpty()) {
			return List.of();
		}
		return transactions.run(() -> {
			List<EnqueueResult> results = new ArrayList<>(jobs.size());
			List<NewJob> run = new ArrayList<>();
			for (NewJob job : jobs) {
				if (job.uniqueKey() == null) {
					run.add(job);
					continue;
				}
				results.addAll(insertBatch(run));
				run.clear();
				results.add(enqueue(job));
			}
			results.addAll(insertBatch(run));
			return results;
		});
	}

	private List<EnqueueResult> insertBatch(List<NewJob> jobs) {
		if (jobs.isEmpty()) {
			return List.of();
		}
		KeyHolder keys = new GeneratedKeyHolder();
		named.batchUpdate(INSERT, jobs.stream().map(MysqlEnqueue::params).toArray(SqlParameterSource[]::new), keys,
				new String[] { "id" });
		return keys.getKeyList()
			.stream()
			.map(key -> new EnqueueResult(((Number) key.values().iterator().next()).longValue(), true))
			.toList();
	}

	/** A locking read: it sees the latest committed holder, where the caller's snapshot might not yet. */
	private Optional<Long> findUnfinishedByUniqueKey(String kind, String uniqueKey) {
		return jdbc.sql("""
				SELECT id FROM jobqueue_job
				WHERE kind = :kind AND unique_key = :uniqueKey AND state IN ('blocked', 'ready', 'running')
				LOCK IN SHARE MODE""")
			.param("kind", kind)
			.param("uniqueKey", uniqueKey)
			.query(Long.class)
			.optional();
	}

	private static MapSqlParameterSource params(NewJob job) {
		return new MapSqlParameterSource()
			.addValue("queue", job.queue())
			.addValue("kind", job.kind())
			.addValue("payload", job.payload())
			.addValue("payloadVersion", job.payloadVersion())
			.addValue("priority", job.priority())
			.addValue("runAt", MysqlRows.parameter(job.runAt()))
			.addValue("delayMicros", Math.multiplyExact(job.delayMillis(), 1000L))
			.addValue("maxAttempts", job.maxAttempts())
			.addValue("uniqueKey", job.uniqueKey(), Types.VARCHAR)
			.addValue("state", job.initialState())
			.addValue("concurrencyKey", job.concurrencyKey(), Types.VARCHAR)
			.addValue("concurrencyLimit", job.keySlot() == null ? null : job.keySlot().limit(), Types.INTEGER)
			.addValue("deadHolds", job.keySlot() != null && job.keySlot().deadHolds())
			.addValue("rateMillis", job.keySlot() == null ? null : job.keySlot().rateMillis(), Types.BIGINT)
			.addValue("traceContext", job.traceContext(), Types.VARCHAR);
	}
}
