package dev.jobqueue.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;

import dev.jobqueue.BatchCounts;
import dev.jobqueue.JobState;

/**
 * The {@link BatchStore} of every dialect: plain SQL that PostgreSQL, MySQL and SQLite read alike, written once, as
 * {@link DependencyStatements} is. A statement over jobs and their batch rows names {@code jobqueue_job} first, so
 * that it locks the tables in the order a {@code TRUNCATE} or a migration of both takes them. A batch's members are found through {@code jobqueue_batch_job}'s index on
 * {@code (batch_id, role, job_id)}, its callbacks through the same index, so that neither scan touches the other.
 */
public final class BatchStatements implements BatchStore {

	private static final String MEMBERS = """
			FROM jobqueue_job j JOIN jobqueue_batch_job m ON m.job_id = j.id
			WHERE m.batch_id = :batch AND m.role = 'member'""";

	private final JdbcClient jdbc;

	private final StatementRunner statements;

	private final BatchTransactions transactions;

	private final TransitionSql transitions;

	private final String now;

	/**
	 * @param transitions the dialect's rendering of the state machine's conditions
	 * @param now the SQL of the database's clock as the dialect stores times
	 */
	public BatchStatements(JdbcClient jdbc, StatementRunner statements, BatchTransactions transactions,
			TransitionSql transitions, String now) {
		this.jdbc = jdbc;
		this.statements = statements;
		this.transactions = transactions;
		this.transitions = transitions;
		this.now = now;
	}

	@Override
	public <T> T inOneTransaction(Supplier<T> work) {
		return transactions.run(work);
	}

	@Override
	public long create(int total) {
		KeyHolder id = new GeneratedKeyHolder();
		statements.write("create a batch", () -> jdbc.sql(
				"INSERT INTO jobqueue_batch (total, created_at) VALUES (:total, %s)".formatted(now))
			.param("total", total)
			.update(id, "id"));
		return id.getKeyAs(Number.class).longValue();
	}

	@Override
	public void add(long batchId, Role role, List<Long> jobIds) {
		for (List<Long> chunk : IdChunks.of(jobIds)) {
			List<Object> values = new ArrayList<>(chunk.size() * 3);
			for (Long jobId : chunk) {
				values.add(jobId);
				values.add(batchId);
				values.add(role.name());
			}
			String rows = String.join(", ", Collections.nCopies(chunk.size(), "(?, ?, ?)"));
			statements.write("record a batch's jobs", () -> jdbc.sql(
					"INSERT INTO jobqueue_batch_job (job_id, batch_id, role) VALUES " + rows)
				.params(values)
				.update());
		}
	}

	@Override
	public List<Row> rowsOf(Collection<Long> jobIds) {
		List<Row> rows = new ArrayList<>();
		for (List<Long> chunk : IdChunks.of(List.copyOf(jobIds))) {
			rows.addAll(statements.read("batches of jobs", () -> jdbc.sql("""
					SELECT m.job_id, m.batch_id, m.role, j.state
					FROM jobqueue_job j JOIN jobqueue_batch_job m ON m.job_id = j.id
					WHERE m.job_id IN (:ids)""")
				.param("ids", chunk)
				.query((rs, row) -> new Row(rs.getLong("job_id"), rs.getLong("batch_id"),
						Role.valueOf(rs.getString("role")), JobState.valueOf(rs.getString("state"))))
				.list()));
		}
		return rows;
	}

	@Override
	public OptionalLong firstUnfinished(long batchId, long from) {
		List<Long> first = statements.read("a batch's first unfinished job", () -> jdbc.sql("""
				SELECT m.job_id %s AND m.job_id >= :from AND %s
				ORDER BY m.job_id LIMIT 1""".formatted(MEMBERS, transitions.unfinished("j")))
			.param("batch", batchId)
			.param("from", from)
			.query(Long.class)
			.list());
		return first.isEmpty() ? OptionalLong.empty() : OptionalLong.of(first.get(0));
	}

	@Override
	public boolean anyDead(long batchId) {
		return !statements.read("a batch's dead job", () -> jdbc.sql("""
				SELECT m.job_id %s AND j.state = 'dead' LIMIT 1""".formatted(MEMBERS))
			.param("batch", batchId)
			.query(Long.class)
			.list()).isEmpty();
	}

	@Override
	public Optional<BatchCounts> count(long batchId) {
		return total(batchId).map(total -> {
			Map<JobState, Integer> byState = new EnumMap<>(JobState.class);
			statements.read("a batch's jobs by state", () -> {
				jdbc.sql("SELECT j.state, COUNT(*) AS jobs " + MEMBERS + " GROUP BY j.state")
					.param("batch", batchId)
					.query((ResultSet rs) -> {
						byState.put(JobState.valueOf(rs.getString("state")), rs.getInt("jobs"));
					});
				return null;
			});
			int succeeded = byState.getOrDefault(JobState.succeeded, 0);
			int dead = byState.getOrDefault(JobState.dead, 0);
			int cancelled = byState.getOrDefault(JobState.cancelled, 0);
			int unfinished = byState.entrySet().stream().filter(entry -> !entry.getKey().isFinished())
				.mapToInt(Map.Entry::getValue).sum();
			return new BatchCounts(batchId, total, unfinished, succeeded, dead, cancelled,
					Math.max(0, total - unfinished - succeeded - dead - cancelled));
		});
	}

	private Optional<Integer> total(long batchId) {
		return statements.read("a batch", () -> jdbc.sql("SELECT total FROM jobqueue_batch WHERE id = :id")
			.param("id", batchId)
			.query(Integer.class)
			.optional());
	}

	@Override
	public Optional<BatchCounts> counts(long batchId) {
		Optional<BatchCounts> recorded = statements.read("a batch's counts", () -> jdbc.sql("""
				SELECT total, succeeded, dead, cancelled FROM jobqueue_batch
				WHERE id = :id AND finished_at IS NOT NULL""")
			.param("id", batchId)
			.query((rs, row) -> recorded(batchId, rs))
			.optional());
		return recorded.isPresent() ? recorded : count(batchId);
	}

	private static BatchCounts recorded(long batchId, ResultSet rs) throws SQLException {
		int total = rs.getInt("total");
		int succeeded = rs.getInt("succeeded");
		int dead = rs.getInt("dead");
		int cancelled = rs.getInt("cancelled");
		return new BatchCounts(batchId, total, 0, succeeded, dead, cancelled, total - succeeded - dead - cancelled);
	}

	@Override
	public boolean finish(BatchCounts counts) {
		return statements.write("finish a batch", () -> jdbc.sql("""
				UPDATE jobqueue_batch SET finished_at = %s, succeeded = :succeeded, dead = :dead, cancelled = :cancelled
				WHERE id = :id AND finished_at IS NULL""".formatted(now))
			.param("succeeded", counts.succeeded())
			.param("dead", counts.dead())
			.param("cancelled", counts.cancelled())
			.param("id", counts.batchId())
			.update()) == 1;
	}

	@Override
	public List<Callback> waitingCallbacks(long batchId) {
		return statements.read("a batch's waiting callbacks", () -> jdbc.sql("""
				SELECT m.job_id, m.role, j.queue, j.concurrency_key
				FROM jobqueue_job j JOIN jobqueue_batch_job m ON m.job_id = j.id
				WHERE m.batch_id = :batch AND m.role IN ('on_finish', 'on_failure') AND j.state = 'waiting'
				ORDER BY m.job_id""")
			.param("batch", batchId)
			.query((rs, row) -> new Callback(rs.getLong("job_id"), Role.valueOf(rs.getString("role")),
					rs.getString("queue"), rs.getString("concurrency_key")))
			.list());
	}

	@Override
	public List<Long> unfinishedAfter(long after, int max) {
		return statements.read("unfinished batches", () -> jdbc.sql("""
				SELECT id FROM jobqueue_batch WHERE finished_at IS NULL AND id > :after ORDER BY id LIMIT :max""")
			.param("after", after)
			.param("max", max)
			.query(Long.class)
			.list());
	}

	@Override
	public int prune() {
		return statements.write("prune batches", () -> jdbc.sql("""
				DELETE FROM jobqueue_batch WHERE finished_at IS NOT NULL
				AND NOT EXISTS (SELECT 1 FROM jobqueue_batch_job m WHERE m.batch_id = jobqueue_batch.id)""")
			.update());
	}
}
