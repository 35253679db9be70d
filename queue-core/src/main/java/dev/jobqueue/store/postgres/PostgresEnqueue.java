package dev.jobqueue.store.postgres;

import static dev.jobqueue.store.postgres.PostgresDialect.TRANSITIONS;

import java.sql.Types;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.store.BatchTransactions;
import dev.jobqueue.store.EnqueueStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.TransitionSql;
import dev.jobqueue.store.postgres.support.PostgresJobCopy;
import dev.jobqueue.store.postgres.support.PostgresReadyNotifier;

/**
 * The insert statements of the PostgreSQL store. When it notifies, a job due now has its queue notified
 * after the enqueue commits, by the {@link PostgresReadyNotifier}, which sends at most one notification
 * per queue per interval and never inside the enqueuing transaction.
 *
 * <p>Times are {@code statement_timestamp()}, not {@code now()}: {@code now()} is the start of the
 * transaction, and a job enqueued late in a long transaction of the caller would be created in the past
 * and be overdue by the time it commits. Whether a job is due now, which decides the notification, is
 * asked of the database too, never of this JVM's clock.
 */
final class PostgresEnqueue implements EnqueueStore {

	/**
	 * ON CONFLICT names the partial unique index's columns and predicate so that only a job of the same kind with the
	 * same key that holds it ({@link TransitionSql#holdsUniqueKey}) counts as a duplicate. Formatted once per
	 * {@link NewJob#optionalColumns()}: every enqueue sends one. {@code has_dependents} is written only for a job that
	 * others enqueued with it run after, {@code unique_states} only for a job that has them; every other insert leaves
	 * them to their defaults.
	 */
	private static final String INSERT_TEMPLATE = """
			INSERT INTO jobqueue_job (queue, kind, payload, payload_version, state, priority, run_at, max_attempts,
			                          unique_key, created_at, concurrency_key, concurrency_limit, concurrency_dead_holds,
			                          concurrency_rate_millis, trace_context%1$s)
			VALUES (:queue, :kind, CAST(:payload AS jsonb), :payloadVersion, :state, :priority,
			        COALESCE(CAST(:runAt AS timestamptz), statement_timestamp() + :delayMillis * interval '1 millisecond'),
			        :maxAttempts, :uniqueKey, statement_timestamp(), :concurrencyKey, :concurrencyLimit, :deadHolds,
			        :rateMillis, :traceContext%2$s)
			ON CONFLICT (kind, unique_key) WHERE unique_key IS NOT NULL AND %3$s
			DO NOTHING
			RETURNING id, state = 'ready' AND run_at <= statement_timestamp() AS due""";

	/** {@link #INSERT_TEMPLATE} for each {@link NewJob#optionalColumns()}. */
	private static final List<String> INSERTS = List.of(insert(false, false), insert(false, true), insert(true, false),
			insert(true, true));

	private final JdbcClient jdbc;

	private final PostgresJobCopy copy;

	private final BatchTransactions batchTransactions;

	/** Null when the store does not notify. */
	private final PostgresReadyNotifier notifier;

	PostgresEnqueue(DataSource dataSource, JdbcClient jdbc, PostgresReadyNotifier notifier) {
		this.jdbc = jdbc;
		this.copy = new PostgresJobCopy(dataSource);
		this.batchTransactions = new BatchTransactions(dataSource);
		this.notifier = notifier;
	}

	@Override
	public EnqueueResult enqueue(NewJob job) {
		while (true) {
			Optional<Long> inserted = insert(job);
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
				(dependedOn ? ", true" : "") + (uniqueStates ? ", :uniqueStates" : ""), TRANSITIONS.holdsUniqueKey(""));
	}

	private Optional<Long> insert(NewJob job) {
		Optional<Inserted> inserted = jdbc.sql(INSERTS.get(job.optionalColumns()))
			.paramSource(params(job))
			.query((rs, n) -> new Inserted(rs.getLong("id"), rs.getBoolean("due")))
			.optional();
		inserted.filter(Inserted::due).ifPresent(row -> notifyDue(Set.of(job.queue())));
		return inserted.map(Inserted::id);
	}

	private record Inserted(long id, boolean due) {
	}

	/**
	 * Draws every id first, in input order, then writes the jobs without a unique key with COPY and the
	 * others with the unnest() statement, whose ON CONFLICT can turn a row away. COPY straight into the
	 * table sends the rows as text, with no parameter arrays to build and decode, and writes each row
	 * once, where COPY into a staging table and an INSERT … SELECT writes it twice (decision record 013).
	 * All of it runs in {@link BatchTransactions}, so
	 * that the batch commits or rolls back whole: a savepoint inside the caller's transaction, else a
	 * transaction of its own.
	 */
	@Override
	public List<EnqueueResult> enqueueAll(List<NewJob> jobs) {
		if (jobs.isEmpty()) {
			return List.of();
		}
		return batchTransactions.run(() -> insertAll(jobs));
	}

	private List<EnqueueResult> insertAll(List<NewJob> jobs) {
		DrawnIds drawn = drawIds(jobs.size());
		int[] keyed = indexes(jobs, true);
		int[] unkeyed = indexes(jobs, false);
		if (unkeyed.length > 0) {
			copy.copy(jobs, unkeyed, drawn.ids(), drawn.now());
		}
		EnqueueResult[] results = new EnqueueResult[jobs.size()];
		for (int index : unkeyed) {
			results[index] = new EnqueueResult(drawn.ids()[index], true);
		}
		if (keyed.length > 0) {
			insertKeyed(jobs, keyed, drawn.ids(), drawn.now(), results);
		}
		notifyDue(dueQueues(jobs, drawn.now()));
		return Arrays.asList(results);
	}

	/**
	 * Ids of the identity's sequence, ascending, so that they follow the input's order; and the time of
	 * this statement, which every job of the batch is created at (and due after). The sequence is looked
	 * up once, in a scalar subquery: nextval() of its name as text would resolve the name again for every
	 * id.
	 */
	private DrawnIds drawIds(int count) {
		return jdbc.sql("""
				SELECT statement_timestamp(), ARRAY(SELECT nextval((SELECT CAST(pg_get_serial_sequence('jobqueue_job', 'id') AS regclass)))
				                    FROM generate_series(1, :count) ORDER BY 1)""")
			.param("count", count)
			.query((rs, n) -> new DrawnIds(PostgresRows.instant(rs, 1), (Long[]) rs.getArray(2).getArray()))
			.single();
	}

	private record DrawnIds(Instant now, Long[] ids) {
	}

	private static int[] indexes(List<NewJob> jobs, boolean withUniqueKey) {
		return IntStream.range(0, jobs.size()).filter(i -> (jobs.get(i).uniqueKey() != null) == withUniqueKey).toArray();
	}

	/**
	 * Inserts the jobs at {@code keyed} with their drawn ids, into {@code results} at the same indexes; a job
	 * whose kind and key an unfinished job holds (also one earlier in this batch) takes that job's id
	 * instead, through {@link #enqueue}.
	 */
	private void insertKeyed(List<NewJob> jobs, int[] keyed, Long[] ids, Instant now, EnqueueResult[] results) {
		List<NewJob> subset = Arrays.stream(keyed).mapToObj(jobs::get).toList();
		Set<Long> inserted = insertWithIds(subset, Arrays.stream(keyed).mapToObj(i -> ids[i]).toArray(Long[]::new), now);
		for (int k = 0; k < keyed.length; k++) {
			int index = keyed[k];
			results[index] = inserted.contains(ids[index]) ? new EnqueueResult(ids[index], true)
					: enqueue(subset.get(k));
		}
	}

	/**
	 * One statement for all the rows: they travel as parallel arrays and unnest() turns them back into
	 * rows. The insert takes the rows in input order, so of two rows of the batch with one key the earlier
	 * is the one inserted. It returns the ids it inserted, and the ids turned away are told apart here
	 * rather than by joining the input with the inserted rows: a join planned on the generic plan's guess
	 * of ten elements per array could compare every row with every other.
	 */
	private Set<Long> insertWithIds(List<NewJob> jobs, Long[] ids, Instant now) {
		boolean dependedOn = jobs.stream().anyMatch(NewJob::hasDependents);
		boolean uniqueStates = jobs.stream().anyMatch(job -> job.uniqueStates() != 0);
		String dependentsArray = (dependedOn ? ", CAST(:dependedOn AS boolean[])" : "")
				+ (uniqueStates ? ", CAST(:uniqueStates AS int[])" : "");
		String dependentsColumn = (dependedOn ? ", has_dependents" : "") + (uniqueStates ? ", unique_states" : "");
		JdbcClient.StatementSpec statement = jdbc.sql("""
				WITH input AS (
				    SELECT *
				    FROM unnest(CAST(:ids AS bigint[]), CAST(:queues AS text[]), CAST(:kinds AS text[]),
				                CAST(:payloads AS text[]), CAST(:payloadVersions AS int[]), CAST(:priorities AS int[]),
				                CAST(:runAts AS bigint[]), CAST(:delays AS bigint[]), CAST(:maxAttempts AS int[]),
				                CAST(:uniqueKeys AS text[]), CAST(:concurrencyKeys AS text[]), CAST(:concurrencyLimits AS int[]),
				                CAST(:deadHolds AS boolean[]), CAST(:rateMillis AS bigint[]), CAST(:traceContexts AS text[])%s)
				         WITH ORDINALITY AS t(id, queue, kind, payload, payload_version, priority, run_at_millis, delay_millis,
				                              max_attempts, unique_key, concurrency_key, concurrency_limit, dead_holds,
				                              rate_millis, trace_context%s, ord)
				)
				INSERT INTO jobqueue_job (id, queue, kind, payload, payload_version, state, priority, run_at, max_attempts,
				                          unique_key, created_at, concurrency_key, concurrency_limit, concurrency_dead_holds,
				                          concurrency_rate_millis, trace_context%s)
				SELECT id, queue, kind, CAST(payload AS jsonb), payload_version,
				       %s, priority,
				       COALESCE(to_timestamp(run_at_millis / 1000.0), CAST(:now AS timestamptz) + delay_millis * interval '1 millisecond'),
				       max_attempts, unique_key, CAST(:now AS timestamptz), concurrency_key, concurrency_limit, dead_holds,
				       rate_millis, trace_context%s
				FROM input
				ORDER BY ord
				ON CONFLICT (kind, unique_key) WHERE unique_key IS NOT NULL AND %s
				DO NOTHING
				RETURNING id""".formatted(dependentsArray, dependentsColumn, dependentsColumn, TRANSITIONS.entryState(""),
				dependentsColumn, TRANSITIONS.holdsUniqueKey("")))
			.param("ids", ids)
			.param("now", PostgresRows.timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE)
			.param("queues", jobs.stream().map(NewJob::queue).toArray(String[]::new))
			.param("kinds", jobs.stream().map(NewJob::kind).toArray(String[]::new))
			.param("payloads", jobs.stream().map(NewJob::payload).toArray(String[]::new))
			.param("payloadVersions", jobs.stream().map(NewJob::payloadVersion).toArray(Integer[]::new))
			.param("priorities", jobs.stream().map(NewJob::priority).toArray(Integer[]::new))
			.param("runAts", jobs.stream().map(j -> j.runAt() == null ? null : j.runAt().toEpochMilli()).toArray(Long[]::new))
			.param("delays", jobs.stream().map(NewJob::delayMillis).toArray(Long[]::new))
			.param("maxAttempts", jobs.stream().map(NewJob::maxAttempts).toArray(Integer[]::new))
			.param("uniqueKeys", jobs.stream().map(NewJob::uniqueKey).toArray(String[]::new))
			.param("concurrencyKeys", jobs.stream().map(NewJob::concurrencyKey).toArray(String[]::new))
			.param("concurrencyLimits", jobs.stream().map(j -> j.keySlot() == null ? null : j.keySlot().limit())
				.toArray(Integer[]::new))
			.param("deadHolds", jobs.stream().map(j -> j.keySlot() != null && j.keySlot().deadHolds())
				.toArray(Boolean[]::new))
			.param("rateMillis", jobs.stream().map(j -> j.keySlot() == null ? null : j.keySlot().rateMillis())
				.toArray(Long[]::new))
			.param("traceContexts", jobs.stream().map(NewJob::traceContext).toArray(String[]::new));
		if (dependedOn) {
			statement = statement.param("dependedOn", jobs.stream().map(NewJob::hasDependents).toArray(Boolean[]::new));
		}
		if (uniqueStates) {
			statement = statement.param("uniqueStates",
					jobs.stream().map(NewJob::uniqueStatesColumn).toArray(Integer[]::new));
		}
		return new HashSet<>(statement.query((rs, n) -> rs.getLong(1)).list());
	}

	/**
	 * The queues with an unkeyed job due by the database's time the ids were drawn at (a delay counts from
	 * it). Keyed jobs wait blocked until promoted, and the promotion notifies.
	 */
	private static Set<String> dueQueues(List<NewJob> jobs, Instant now) {
		Set<String> queues = new HashSet<>();
		for (NewJob job : jobs) {
			long runAt = job.runAt() != null ? job.runAt().toEpochMilli() : now.toEpochMilli() + job.delayMillis();
			if (job.keySlot() == null && runAt <= now.toEpochMilli()) {
				queues.add(job.queue());
			}
		}
		return queues;
	}

	private void notifyDue(Set<String> queues) {
		if (notifier != null) {
			notifier.notifyAfterCommit(queues);
		}
	}

	Optional<Long> findHolder(String kind, String uniqueKey) {
		return jdbc.sql("""
				SELECT id FROM jobqueue_job
				WHERE kind = :kind AND unique_key = :uniqueKey AND %s""".formatted(TRANSITIONS.holdsUniqueKey("")))
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
			.addValue("runAt", PostgresRows.timestamp(job.runAt()), Types.TIMESTAMP_WITH_TIMEZONE)
			.addValue("delayMillis", job.delayMillis())
			.addValue("maxAttempts", job.maxAttempts())
			.addValue("uniqueKey", job.uniqueKey(), Types.VARCHAR)
			.addValue("state", job.initialState())
			.addValue("concurrencyKey", job.concurrencyKey(), Types.VARCHAR)
			.addValue("concurrencyLimit", job.keySlot() == null ? null : job.keySlot().limit(), Types.INTEGER)
			.addValue("deadHolds", job.keySlot() != null && job.keySlot().deadHolds())
			.addValue("rateMillis", job.keySlot() == null ? null : job.keySlot().rateMillis(), Types.BIGINT)
			.addValue("traceContext", job.traceContext(), Types.VARCHAR)
			.addValue("uniqueStates", job.uniqueStatesColumn(), Types.INTEGER);
	}
}
