package dev.jobqueue.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import javax.sql.DataSource;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Job;
import dev.jobqueue.JobState;

/**
 * The queue's SQL for PostgreSQL. Every time is the database's {@code now()}, so nodes with skewed
 * clocks still agree on what is due and which lease has expired.
 */
public final class PostgresJobStore implements JobStore {

	private final JdbcClient jdbc;

	public PostgresJobStore(DataSource dataSource) {
		this.jdbc = JdbcClient.create(dataSource);
	}

	@Override
	public String vendor() {
		return "postgresql";
	}

	@Override
	public long enqueue(NewJob job) {
		// ON CONFLICT names the partial unique index's predicate so that only an unfinished job with the
		// same key counts as a duplicate; a finished one does not block a new enqueue.
		while (true) {
			Optional<Long> inserted = jdbc.sql("""
					INSERT INTO jobqueue_job (queue, kind, payload, state, priority, run_at, max_attempts, unique_key)
					VALUES (:queue, :kind, CAST(:payload AS jsonb), 'ready', :priority,
					        COALESCE(CAST(:runAt AS timestamptz), now() + :delayMillis * interval '1 millisecond'),
					        :maxAttempts, :uniqueKey)
					ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state IN ('ready', 'running')
					DO NOTHING
					RETURNING id""")
				.paramSource(params(job))
				.query(Long.class)
				.optional();
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

	@Override
	public List<Long> enqueueAll(List<NewJob> jobs) {
		if (jobs.isEmpty()) {
			return List.of();
		}
		// One statement per batch: the rows travel as parallel arrays and unnest() turns them back into
		// rows. Ids are drawn in input order (ORDER BY ord, volatile nextval() evaluated after the sort),
		// and a left join tells which rows a unique key turned away.
		List<Object[]> rows = jdbc.sql("""
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
		List<Long> ids = new ArrayList<>(jobs.size());
		for (int i = 0; i < rows.size(); i++) {
			boolean inserted = (Boolean) rows.get(i)[1];
			ids.add(inserted ? (Long) rows.get(i)[0] : enqueue(jobs.get(i)));
		}
		return ids;
	}

	private Optional<Long> findUnfinishedByUniqueKey(String uniqueKey) {
		return jdbc.sql("""
				SELECT id FROM jobqueue_job
				WHERE unique_key = :uniqueKey AND state IN ('ready', 'running')""")
			.param("uniqueKey", uniqueKey)
			.query(Long.class)
			.optional();
	}

	@Override
	public Optional<Job> find(long id) {
		return jdbc.sql("""
				SELECT id, queue, kind, payload::text AS payload, state, priority, run_at, attempt, max_attempts,
				       lease_owner, lease_expires_at, unique_key, last_error, result::text AS result,
				       created_at, started_at, finished_at
				FROM jobqueue_job WHERE id = :id""")
			.param("id", id)
			.query(PostgresJobStore::job)
			.optional();
	}

	@Override
	public boolean cancel(long id) {
		return jdbc.sql("""
				UPDATE jobqueue_job SET state = 'cancelled', finished_at = now()
				WHERE id = :id AND state = 'ready'""").param("id", id).update() == 1;
	}

	@Override
	public boolean retryDead(long id) {
		return jdbc.sql("""
				UPDATE jobqueue_job SET state = 'ready', attempt = 0, run_at = now(), finished_at = NULL
				WHERE id = :id AND state = 'dead'""").param("id", id).update() == 1;
	}

	@Override
	public List<ClaimedJob> claim(String queue, int limit, String owner, Duration lease) {
		// One statement: pick the due rows in claim order, lock them, and mark them running.
		// SKIP LOCKED lets concurrent pollers pass over rows another poller is claiming at this instant,
		// so they never block each other and never pick the same row; the partial index over ready rows
		// (queue, priority, run_at, id) serves the scan in exactly this order. The lease token grows at
		// every claim so that writes from any earlier execution are fenced off.
		List<ClaimedJob> claimed = jdbc.sql("""
				WITH picked AS (
				    SELECT id FROM jobqueue_job
				    WHERE state = 'ready' AND queue = :queue AND run_at <= now()
				    ORDER BY priority, run_at, id
				    LIMIT :limit
				    FOR UPDATE SKIP LOCKED
				)
				UPDATE jobqueue_job j
				SET state = 'running', attempt = j.attempt + 1, lease_token = j.lease_token + 1,
				    lease_owner = :owner, lease_expires_at = now() + :leaseMillis * interval '1 millisecond',
				    started_at = now()
				FROM picked
				WHERE j.id = picked.id
				RETURNING j.id, j.queue, j.kind, j.payload::text, j.attempt, j.max_attempts, j.priority,
				          j.lease_token, j.run_at, j.started_at""")
			.param("queue", queue)
			.param("limit", limit)
			.param("owner", owner)
			.param("leaseMillis", lease.toMillis())
			.query((rs, n) -> new ClaimedJob(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
					rs.getInt(5), rs.getInt(6), rs.getInt(7), new Lease(rs.getLong(1), rs.getLong(8)),
					instant(rs, 9), instant(rs, 10)))
			.list();
		// RETURNING gives no order; hand the jobs out in claim order.
		return ClaimOrder.sort(claimed);
	}

	@Override
	public boolean complete(Lease lease, String resultJson) {
		return jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'succeeded', result = CAST(:result AS jsonb), finished_at = now(),
				    lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""")
			.param("result", resultJson)
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	@Override
	public Set<Lease> completeAll(Collection<Completion> completions) {
		if (completions.isEmpty()) {
			return Set.of();
		}
		List<Lease> written = jdbc.sql("""
				UPDATE jobqueue_job j
				SET state = 'succeeded', result = CAST(c.result AS jsonb), finished_at = now(),
				    lease_owner = NULL, lease_expires_at = NULL
				FROM unnest(CAST(:ids AS bigint[]), CAST(:tokens AS bigint[]), CAST(:results AS text[]))
				     AS c(id, token, result)
				WHERE j.id = c.id AND j.lease_token = c.token AND j.state = 'running'
				RETURNING j.id, j.lease_token""")
			.param("ids", completions.stream().map(c -> c.lease().jobId()).toArray(Long[]::new))
			.param("tokens", completions.stream().map(c -> c.lease().token()).toArray(Long[]::new))
			.param("results", completions.stream().map(Completion::result).toArray(String[]::new))
			.query((rs, n) -> new Lease(rs.getLong(1), rs.getLong(2)))
			.list();
		Set<Lease> lost = new HashSet<>();
		completions.forEach(c -> lost.add(c.lease()));
		written.forEach(lost::remove);
		return lost;
	}

	@Override
	public boolean retryLater(Lease lease, Duration delay, String error) {
		return jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'ready', run_at = now() + :delayMillis * interval '1 millisecond', last_error = :error,
				    lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""")
			.param("delayMillis", delay.toMillis())
			.param("error", error)
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	@Override
	public boolean fail(Lease lease, String error) {
		return jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'dead', last_error = :error, finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""")
			.param("error", error)
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	@Override
	public boolean release(Lease lease) {
		return jdbc.sql("""
				UPDATE jobqueue_job
				SET state = 'ready', attempt = attempt - 1, lease_owner = NULL, lease_expires_at = NULL
				WHERE id = :id AND lease_token = :token AND state = 'running'""")
			.param("id", lease.jobId())
			.param("token", lease.token())
			.update() == 1;
	}

	@Override
	public Set<Lease> heartbeat(String owner, Collection<Lease> leases, Duration lease) {
		if (leases.isEmpty()) {
			return Set.of();
		}
		return new HashSet<>(jdbc.sql("""
				UPDATE jobqueue_job j
				SET lease_expires_at = now() + :leaseMillis * interval '1 millisecond'
				FROM unnest(CAST(:ids AS bigint[]), CAST(:tokens AS bigint[])) AS held(id, token)
				WHERE j.id = held.id AND j.lease_token = held.token AND j.state = 'running' AND j.lease_owner = :owner
				RETURNING j.id, j.lease_token""")
			.param("leaseMillis", lease.toMillis())
			.param("ids", leases.stream().map(Lease::jobId).toArray(Long[]::new))
			.param("tokens", leases.stream().map(Lease::token).toArray(Long[]::new))
			.param("owner", owner)
			.query((rs, n) -> new Lease(rs.getLong(1), rs.getLong(2)))
			.list());
	}

	@Override
	public int reapExpired(int limit) {
		// SKIP LOCKED keeps reapers on several nodes out of each other's way. The lock also orders the
		// reaper against a completion of the same row: whichever commits first wins, and the loser's
		// re-checked WHERE (state = 'running', lease still expired) matches nothing. A reaped attempt
		// stays counted, so a job that kills its worker every time still ends dead.
		return jdbc.sql("""
				WITH expired AS (
				    SELECT id FROM jobqueue_job
				    WHERE state = 'running' AND lease_expires_at < now()
				    ORDER BY lease_expires_at
				    LIMIT :limit
				    FOR UPDATE SKIP LOCKED
				)
				UPDATE jobqueue_job j
				SET state = CASE WHEN j.attempt >= j.max_attempts THEN 'dead' ELSE 'ready' END,
				    finished_at = CASE WHEN j.attempt >= j.max_attempts THEN now() END,
				    last_error = 'lease of ' || j.lease_owner || ' expired at ' || j.lease_expires_at
				                 || ' (worker stopped or lost the database)',
				    lease_owner = NULL, lease_expires_at = NULL
				FROM expired
				WHERE j.id = expired.id AND j.state = 'running' AND j.lease_expires_at < now()""")
			.param("limit", limit)
			.update();
	}

	@Override
	public int prune(Duration finishedRetention, Duration deadRetention, int limit) {
		return jdbc.sql("""
				DELETE FROM jobqueue_job WHERE id IN (
				    SELECT id FROM jobqueue_job
				    WHERE (state IN ('succeeded', 'cancelled') AND finished_at < now() - :finishedMillis * interval '1 millisecond')
				       OR (state = 'dead' AND finished_at < now() - :deadMillis * interval '1 millisecond')
				    LIMIT :limit
				    FOR UPDATE SKIP LOCKED
				)""")
			.param("finishedMillis", finishedRetention.toMillis())
			.param("deadMillis", deadRetention.toMillis())
			.param("limit", limit)
			.update();
	}

	@Override
	public Map<String, Map<JobState, Long>> countByQueueAndState() {
		Map<String, Map<JobState, Long>> counts = new TreeMap<>();
		jdbc.sql("SELECT queue, state, count(*) FROM jobqueue_job GROUP BY queue, state").query(rs -> {
			counts.computeIfAbsent(rs.getString(1), q -> new EnumMap<>(JobState.class))
				.put(JobState.valueOf(rs.getString(2)), rs.getLong(3));
		});
		return counts;
	}

	private static MapSqlParameterSource params(NewJob job) {
		return new MapSqlParameterSource()
			.addValue("queue", job.queue())
			.addValue("kind", job.kind())
			.addValue("payload", job.payload())
			.addValue("priority", job.priority())
			.addValue("runAt", timestamp(job.runAt()), Types.TIMESTAMP_WITH_TIMEZONE)
			.addValue("delayMillis", job.delayMillis())
			.addValue("maxAttempts", job.maxAttempts())
			.addValue("uniqueKey", job.uniqueKey(), Types.VARCHAR);
	}

	private static OffsetDateTime timestamp(Instant instant) {
		return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
	}

	private static Instant instant(ResultSet rs, String column) throws SQLException {
		OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
		return value == null ? null : value.toInstant();
	}

	private static Instant instant(ResultSet rs, int column) throws SQLException {
		OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
		return value == null ? null : value.toInstant();
	}

	private static Job job(ResultSet rs, int row) throws SQLException {
		return new Job(rs.getLong("id"), rs.getString("queue"), rs.getString("kind"), rs.getString("payload"),
				JobState.valueOf(rs.getString("state")), rs.getInt("priority"), instant(rs, "run_at"),
				rs.getInt("attempt"), rs.getInt("max_attempts"), rs.getString("lease_owner"),
				instant(rs, "lease_expires_at"), rs.getString("unique_key"), rs.getString("last_error"),
				rs.getString("result"), instant(rs, "created_at"), instant(rs, "started_at"),
				instant(rs, "finished_at"));
	}
}
