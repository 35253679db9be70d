package dev.jobqueue.store.sqlite;

import static dev.jobqueue.store.sqlite.SqliteDialect.TRANSITIONS;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.store.BatchTransactions;
import dev.jobqueue.store.EnqueueStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.TransitionSql;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/** Enqueue statements on SQLite. */
final class SqliteEnqueue implements EnqueueStore {

	/**
	 * The conflict target repeats the partial unique index's columns and predicate, so that only a job of the same kind
	 * with the same key that holds it ({@link TransitionSql#holdsUniqueKey}) counts as a duplicate. Formatted once per
	 * {@link NewJob#optionalColumns()}: every enqueue sends one. {@code has_dependents} is written only for a job that
	 * others enqueued with it run after, {@code unique_states} only for a job that has them; every other insert leaves
	 * them to their defaults.
	 */
	private static final String INSERT_TEMPLATE = """
			INSERT INTO jobqueue_job (queue, kind, payload, payload_version, state, priority, run_at, max_attempts,
			                          unique_key, created_at, concurrency_key, concurrency_limit, concurrency_dead_holds,
			                          concurrency_rate_millis, trace_context%1$s)
			VALUES (:queue, :kind, :payload, :payloadVersion, :state, :priority,
			        COALESCE(:runAt, CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :delayMillis),
			        :maxAttempts, :uniqueKey, CAST(round(unixepoch('subsec') * 1000) AS INTEGER), :concurrencyKey,
			        :concurrencyLimit, :deadHolds, :rateMillis, :traceContext%2$s)
			ON CONFLICT (kind, unique_key) WHERE unique_key IS NOT NULL AND %3$s
			DO NOTHING
			RETURNING id""";

	/** {@link #INSERT_TEMPLATE} for each {@link NewJob#optionalColumns()}. */
	private static final List<String> INSERTS = List.of(insert(false, false), insert(false, true), insert(true, false),
			insert(true, true));

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	private final BatchTransactions transactions;

	SqliteEnqueue(JdbcClient jdbc, SqliteStatements statements, BatchTransactions transactions) {
		this.jdbc = jdbc;
		this.statements = statements;
		this.transactions = transactions;
	}

	@Override
	public EnqueueResult enqueue(NewJob job) {
		while (true) {
			Optional<Long> inserted = statements.write("enqueue", () -> jdbc
				.sql(INSERTS.get(job.optionalColumns()))
				.paramSource(params(job))
				.query(Long.class)
				.optional());
			if (inserted.isPresent()) {
				return new EnqueueResult(inserted.get(), true);
			}
			Optional<Long> existing = findHolder(job.kind(), job.uniqueKey());
			// The holder of the key may have finished between the two statements: then the insert can win.
			if (existing.isPresent()) {
				return new EnqueueResult(existing.get(), false);
			}
		}
	}

	private static String insert(boolean dependedOn, boolean uniqueStates) {
		return INSERT_TEMPLATE.formatted((dependedOn ? ", has_dependents" : "") + (uniqueStates ? ", unique_states" : ""),
				(dependedOn ? ", 1" : "") + (uniqueStates ? ", :uniqueStates" : ""), TRANSITIONS.holdsUniqueKey(""));
	}

	/**
	 * One insert per job, all or nothing through {@link BatchTransactions}: a savepoint in the caller's
	 * transaction, else an immediate transaction of our own. SQLite runs in this process, so a statement
	 * costs microseconds, not a round trip: what a batch must save is commits, and one transaction makes
	 * it one commit. Ids come back in input order by construction.
	 */
	@Override
	public List<EnqueueResult> enqueueAll(List<NewJob> jobs) {
		if (jobs.isEmpty()) {
			return List.of();
		}
		return transactions.run(() -> {
			List<EnqueueResult> results = new ArrayList<>(jobs.size());
			jobs.forEach(job -> results.add(enqueue(job)));
			return results;
		});
	}

	private Optional<Long> findHolder(String kind, String uniqueKey) {
		return statements.read("find by unique key", () -> jdbc.sql("""
				SELECT id FROM jobqueue_job
				WHERE kind = :kind AND unique_key = :uniqueKey AND %s""".formatted(TRANSITIONS.holdsUniqueKey("")))
			.param("kind", kind)
			.param("uniqueKey", uniqueKey)
			.query(Long.class)
			.optional());
	}

	private static MapSqlParameterSource params(NewJob job) {
		return new MapSqlParameterSource()
			.addValue("queue", job.queue())
			.addValue("kind", job.kind())
			.addValue("payload", job.payload())
			.addValue("payloadVersion", job.payloadVersion())
			.addValue("priority", job.priority())
			.addValue("runAt", job.runAt() == null ? null : job.runAt().toEpochMilli(), Types.BIGINT)
			.addValue("delayMillis", job.delayMillis())
			.addValue("maxAttempts", job.maxAttempts())
			.addValue("uniqueKey", job.uniqueKey(), Types.VARCHAR)
			.addValue("state", job.initialState())
			.addValue("concurrencyKey", job.concurrencyKey(), Types.VARCHAR)
			.addValue("concurrencyLimit", job.keySlot() == null ? null : job.keySlot().limit(), Types.INTEGER)
			.addValue("deadHolds", job.keySlot() != null && job.keySlot().deadHolds() ? 1 : 0)
			.addValue("rateMillis", job.keySlot() == null ? null : job.keySlot().rateMillis(), Types.BIGINT)
			.addValue("traceContext", job.traceContext(), Types.VARCHAR)
			.addValue("uniqueStates", job.uniqueStatesColumn(), Types.INTEGER);
	}
}
