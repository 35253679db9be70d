package dev.jobqueue.store;

import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The insert statements of the PostgreSQL store. When it notifies, a job due now also sends
 * {@code pg_notify('jobqueue_ready', queue)}, in the same transaction, so listeners hear of it exactly
 * when it becomes visible. PostgreSQL delivers identical notifications of one transaction once, so a
 * transaction enqueueing many jobs of a queue wakes each listener once.
 */
final class PostgresEnqueue {

	private final JdbcClient jdbc;

	private final boolean notify;

	PostgresEnqueue(JdbcClient jdbc, boolean notify) {
		this.jdbc = jdbc;
		this.notify = notify;
	}

	long enqueue(NewJob job) {
		while (true) {
			Optional<Long> inserted = insert(job);
			if (inserted.isPresent()) {
				return inserted.get();
			}
			Optional<Long> existing = findUnfinishedByUniqueKey(job.uniqueKey());
			// The holder of the key may have finished between the two statements: then the insert can win.
			if (existing.isPresent()) {
				return existing.get();
			}
		}
	}

	private Optional<Long> insert(NewJob job) {
		// ON CONFLICT names the partial unique index's predicate so that only an unfinished job with the
		// same key counts as a duplicate; a finished one does not block a new enqueue.
		String sql = notify ? """
				WITH inserted AS (
				    INSERT INTO jobqueue_job (queue, kind, payload, state, priority, run_at, max_attempts, unique_key)
				    VALUES (:queue, :kind, CAST(:payload AS jsonb), 'ready', :priority,
				            COALESCE(CAST(:runAt AS timestamptz), now() + :delayMillis * interval '1 millisecond'),
				            :maxAttempts, :uniqueKey)
				    ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state IN ('ready', 'running')
				    DO NOTHING
				    RETURNING id, queue, run_at
				)
				SELECT id, (SELECT pg_notify('jobqueue_ready', queue) WHERE run_at <= now()) IS NULL AS later
				FROM inserted""" : """
				INSERT INTO jobqueue_job (queue, kind, payload, state, priority, run_at, max_attempts, unique_key)
				VALUES (:queue, :kind, CAST(:payload AS jsonb), 'ready', :priority,
				        COALESCE(CAST(:runAt AS timestamptz), now() + :delayMillis * interval '1 millisecond'),
				        :maxAttempts, :uniqueKey)
				ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state IN ('ready', 'running')
				DO NOTHING
				RETURNING id""";
		return jdbc.sql(sql).paramSource(params(job)).query((rs, n) -> rs.getLong(1)).optional();
	}

	List<Long> enqueueAll(List<NewJob> jobs) {
		if (jobs.isEmpty()) {
			return List.of();
		}
		List<Object[]> rows = insertAll(jobs);
		List<Long> ids = new ArrayList<>(jobs.size());
		for (int i = 0; i < rows.size(); i++) {
			boolean inserted = (Boolean) rows.get(i)[1];
			ids.add(inserted ? (Long) rows.get(i)[0] : enqueue(jobs.get(i)));
		}
		if (notify) {
			notifyDue(jobs);
		}
		return ids;
	}

	/**
	 * One statement per batch: the rows travel as parallel arrays and unnest() turns them back into
	 * rows. Ids are drawn in input order (ORDER BY ord, volatile nextval() evaluated after the sort),
	 * and a left join tells which rows a unique key turned away.
	 */
	private List<Object[]> insertAll(List<NewJob> jobs) {
		return jdbc.sql("""
				WITH input AS (
				    SELECT nextval(pg_get_serial_sequence('jobqueue_job', 'id')) AS id, t.*
				    FROM unnest(CAST(:queues AS text[]), CAST(:kinds AS text[]), CAST(:payloads AS text[]),
				                CAST(:priorities AS int[]), CAST(:runAts AS bigint[]), CAST(:delays AS bigint[]),
				                CAST(:maxAttempts AS int[]), CAST(:uniqueKeys AS text[]))
				         WITH ORDINALITY AS t(queue, kind, payload, priority, run_at_millis, delay_millis, max_attempts, unique_key, ord)
				    ORDER BY t.ord
				), inserted AS (
				    INSERT INTO jobqueue_job (id, queue, kind, payload, state, priority, run_at, max_attempts, unique_key)
				    SELECT id, queue, kind, CAST(payload AS jsonb), 'ready', priority,
				           COALESCE(to_timestamp(run_at_millis / 1000.0), now() + delay_millis * interval '1 millisecond'), max_attempts, unique_key
				    FROM input
				    ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state IN ('ready', 'running')
				    DO NOTHING
				    RETURNING id
				)
				SELECT input.id, inserted.id IS NOT NULL AS inserted
				FROM input LEFT JOIN inserted ON inserted.id = input.id
				ORDER BY input.ord""")
			.param("queues", jobs.stream().map(NewJob::queue).toArray(String[]::new))
			.param("kinds", jobs.stream().map(NewJob::kind).toArray(String[]::new))
			.param("payloads", jobs.stream().map(NewJob::payload).toArray(String[]::new))
			.param("priorities", jobs.stream().map(NewJob::priority).toArray(Integer[]::new))
			.param("runAts", jobs.stream().map(j -> j.runAt() == null ? null : j.runAt().toEpochMilli()).toArray(Long[]::new))
			.param("delays", jobs.stream().map(NewJob::delayMillis).toArray(Long[]::new))
			.param("maxAttempts", jobs.stream().map(NewJob::maxAttempts).toArray(Integer[]::new))
			.param("uniqueKeys", jobs.stream().map(NewJob::uniqueKey).toArray(String[]::new))
			.query((rs, n) -> new Object[] { rs.getLong(1), rs.getBoolean(2) })
			.list();
	}

	/** One notification per queue with a job due now; a second statement, but one per batch. */
	private void notifyDue(List<NewJob> jobs) {
		Instant now = Instant.now();
		String[] queues = jobs.stream()
			.filter(job -> job.runAt() == null ? job.delayMillis() <= 0 : !job.runAt().isAfter(now))
			.map(NewJob::queue)
			.distinct()
			.toArray(String[]::new);
		if (queues.length > 0) {
			jdbc.sql("SELECT pg_notify('jobqueue_ready', queue) FROM unnest(CAST(:queues AS text[])) AS q(queue)")
				.param("queues", queues)
				.query((rs, n) -> 1)
				.list();
		}
	}

	Optional<Long> findUnfinishedByUniqueKey(String uniqueKey) {
		return jdbc.sql("""
				SELECT id FROM jobqueue_job
				WHERE unique_key = :uniqueKey AND state IN ('ready', 'running')""")
			.param("uniqueKey", uniqueKey)
			.query(Long.class)
			.optional();
	}

	private static MapSqlParameterSource params(NewJob job) {
		return new MapSqlParameterSource()
			.addValue("queue", job.queue())
			.addValue("kind", job.kind())
			.addValue("payload", job.payload())
			.addValue("priority", job.priority())
			.addValue("runAt", PostgresRows.timestamp(job.runAt()), Types.TIMESTAMP_WITH_TIMEZONE)
			.addValue("delayMillis", job.delayMillis())
			.addValue("maxAttempts", job.maxAttempts())
			.addValue("uniqueKey", job.uniqueKey(), Types.VARCHAR);
	}
}
