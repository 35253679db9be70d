package dev.jobqueue.store.mysql;

import static dev.jobqueue.store.mysql.MysqlDialect.TRANSITIONS;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.ArgumentPreparedStatementSetter;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.store.BatchTransactions;
import dev.jobqueue.store.EnqueueStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.mysql.support.MysqlValues;

/**
 * Enqueue statements on MySQL. MySQL has no {@code ON CONFLICT … DO NOTHING} that names one index, and
 * {@code INSERT IGNORE} would turn every other refusal (a CHECK, a trigger) into a warning: the insert is plain,
 * and the duplicate it may meet on the unique-key index ({@code unfinished_unique_key}, V26) is caught. A failed
 * statement on MySQL rolls back itself only, so the caller's transaction goes on. A job whose key another job
 * already holds is found before any insert: a duplicate is normal traffic, and MariaDB Connector/J logs every error
 * the server returns at WARN. Only an insert racing the holder's still meets the index.
 */
final class MysqlEnqueue implements EnqueueStore {

	private static final String INSERT = """
			INSERT INTO jobqueue_job (queue, kind, payload, payload_version, state, priority, run_at, max_attempts,
			                          unique_key, created_at, concurrency_key, concurrency_limit, concurrency_dead_holds,
			                          concurrency_rate_millis, trace_context)
			VALUES\s""";

	/** One job's values, in the order of {@link #INSERT}'s columns and of {@link #values}. */
	private static final String ROW = """
			(?, ?, ?, ?, ?, ?, COALESCE(?, UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND), ?, ?, UTC_TIMESTAMP(6), ?, ?, ?, ?, ?)""";

	/**
	 * {@link #INSERT} of jobs that others run after (a workflow's, a batch's), {@code has_dependents} set: written only
	 * for such jobs, every other insert leaves it to its default.
	 */
	private static final String INSERT_DEPENDED_ON = INSERT.replace("trace_context)", "trace_context, has_dependents)");

	/** {@link #ROW} of {@link #INSERT_DEPENDED_ON}. */
	private static final String ROW_DEPENDED_ON = ROW.substring(0, ROW.length() - 1) + ", TRUE)";

	/**
	 * The statement of one job by its {@link NewJob#optionalColumns()}: {@code unique_states} is written only for a
	 * job that holds its key in finished states, bound last ({@link #values}).
	 */
	private static final List<String> SINGLE_INSERTS = List.of(INSERT + ROW, withUniqueStates(INSERT + ROW),
			INSERT_DEPENDED_ON + ROW_DEPENDED_ON, withUniqueStates(INSERT_DEPENDED_ON + ROW_DEPENDED_ON));

	/** The most jobs one multi-row insert carries. */
	static final int ROWS_PER_INSERT = 2000;

	/**
	 * The most payload characters one multi-row insert carries (a job whose payload alone is longer goes in by
	 * itself): at most 4 MB in UTF-8, a quarter of MariaDB's default {@code max_allowed_packet}.
	 */
	static final int PAYLOAD_CHARS_PER_INSERT = 1_000_000;

	private final JdbcClient jdbc;

	private final JdbcTemplate template;

	private final BatchTransactions transactions;

	/** Whether the server is MariaDB, whose INSERT has RETURNING. */
	private final boolean returning;

	MysqlEnqueue(JdbcClient jdbc, JdbcTemplate template, BatchTransactions transactions, boolean returning) {
		this.jdbc = jdbc;
		this.template = template;
		this.transactions = transactions;
		this.returning = returning;
	}

	@Override
	public EnqueueResult enqueue(NewJob job) {
		if (job.uniqueKey() != null) {
			Optional<Long> holder = visibleHolder(job.kind(), job.uniqueKey()).flatMap(this::stillHolds);
			if (holder.isPresent()) {
				return new EnqueueResult(holder.get(), false);
			}
		}
		while (true) {
			try {
				KeyHolder keys = new GeneratedKeyHolder();
				jdbc.sql(SINGLE_INSERTS.get(job.optionalColumns())).params(values(job)).update(keys);
				return new EnqueueResult(keys.getKey().longValue(), true);
			}
			catch (DuplicateKeyException duplicate) {
				Optional<Long> existing = findHolder(job.kind(), job.uniqueKey());
				// The holder of the key may have finished between the two statements: then the insert can win.
				if (existing.isPresent()) {
					return new EnqueueResult(existing.get(), false);
				}
			}
		}
	}

	/**
	 * All or nothing through {@link BatchTransactions}. Jobs without a unique key go in together, per run of them that
	 * others run after or not ({@code has_dependents}); a job with a unique key goes in alone, as it may meet its
	 * holder. Runs keep the given order, so ids grow in it
	 * too. On MariaDB a run is a few multi-row inserts that return their ids ({@code RETURNING id}, in the order of
	 * their rows); on MySQL, which has no RETURNING, a JDBC batch, which MySQL Connector/J rewrites to a multi-row
	 * insert with {@code rewriteBatchedStatements=true}. A multi-row insert's ids are not read from the driver: the
	 * server reports only the first, and the next ones follow from it only while the auto-increment step stays put,
	 * which a Galera cluster changes as nodes join and leave.
	 */
	@Override
	public List<EnqueueResult> enqueueAll(List<NewJob> jobs) {
		if (jobs.isEmpty()) {
			return List.of();
		}
		return transactions.run(() -> {
			List<EnqueueResult> results = new ArrayList<>(jobs.size());
			List<NewJob> run = new ArrayList<>();
			for (NewJob job : jobs) {
				if (!run.isEmpty() && run.get(0).hasDependents() != job.hasDependents()) {
					results.addAll(insertRun(run));
					run.clear();
				}
				if (job.uniqueKey() == null) {
					run.add(job);
					continue;
				}
				results.addAll(insertRun(run));
				run.clear();
				results.add(enqueue(job));
			}
			results.addAll(insertRun(run));
			return results;
		});
	}

	private List<EnqueueResult> insertRun(List<NewJob> jobs) {
		if (jobs.isEmpty()) {
			return List.of();
		}
		List<Long> ids = returning ? insertReturning(jobs) : insertBatch(jobs);
		return ids.stream().map(id -> new EnqueueResult(id, true)).toList();
	}

	/**
	 * Multi-row inserts of at most {@link #ROWS_PER_INSERT} jobs and {@link #PAYLOAD_CHARS_PER_INSERT} payload
	 * characters each: a JDBC batch with generated keys is one insert per job on the server, even pipelined.
	 */
	private List<Long> insertReturning(List<NewJob> jobs) {
		List<Long> ids = new ArrayList<>(jobs.size());
		int from = 0;
		while (from < jobs.size()) {
			int to = from + 1;
			long chars = jobs.get(from).payload().length();
			while (to < jobs.size() && to - from < ROWS_PER_INSERT
					&& chars + jobs.get(to).payload().length() <= PAYLOAD_CHARS_PER_INSERT) {
				chars += jobs.get(to).payload().length();
				to++;
			}
			ids.addAll(insertRows(jobs.subList(from, to)));
			from = to;
		}
		return ids;
	}

	/** Run by {@code execute}, not as a query: MySQL Connector/J refuses an INSERT through {@code executeQuery}. */
	private List<Long> insertRows(List<NewJob> rows) {
		boolean dependedOn = rows.get(0).hasDependents();
		String sql = (dependedOn ? INSERT_DEPENDED_ON : INSERT)
				+ String.join(", ", Collections.nCopies(rows.size(), dependedOn ? ROW_DEPENDED_ON : ROW)) + " RETURNING id";
		Object[] values = rows.stream().flatMap(job -> values(job).stream()).toArray();
		return template.execute(sql, (PreparedStatement statement) -> {
			new ArgumentPreparedStatementSetter(values).setValues(statement);
			statement.execute();
			List<Long> ids = new ArrayList<>(rows.size());
			try (ResultSet returned = statement.getResultSet()) {
				while (returned.next()) {
					ids.add(returned.getLong(1));
				}
			}
			return ids;
		});
	}

	private List<Long> insertBatch(List<NewJob> jobs) {
		KeyHolder keys = new GeneratedKeyHolder();
		String sql = jobs.get(0).hasDependents() ? INSERT_DEPENDED_ON + ROW_DEPENDED_ON : INSERT + ROW;
		template.batchUpdate(connection -> connection.prepareStatement(sql, new String[] { "id" }),
				new BatchPreparedStatementSetter() {

					@Override
					public void setValues(PreparedStatement statement, int i) throws SQLException {
						new ArgumentPreparedStatementSetter(values(jobs.get(i)).toArray()).setValues(statement);
					}

					@Override
					public int getBatchSize() {
						return jobs.size();
					}
				}, keys);
		return keys.getKeyList().stream().map(key -> ((Number) key.values().iterator().next()).longValue()).toList();
	}

	/**
	 * The holder the caller's snapshot sees, through the unique index: a plain read, which locks no gap that two
	 * enqueuers of a new key could then deadlock on.
	 */
	private Optional<Long> visibleHolder(String kind, String uniqueKey) {
		return jdbc.sql("""
				SELECT id FROM jobqueue_job
				WHERE kind = :kind AND unfinished_unique_key = UNHEX(SHA2(:uniqueKey, 256)) AND unique_key = :uniqueKey""")
			.param("kind", kind)
			.param("uniqueKey", uniqueKey)
			.query(Long.class)
			.optional();
	}

	/**
	 * The holder, if it holds the key in its latest committed version: the snapshot may be older than its finish,
	 * and a job that finishes in a state it does not hold the key in frees it. A locking read by primary key, as the duplicate path takes.
	 */
	private Optional<Long> stillHolds(long id) {
		return jdbc.sql("""
				SELECT id FROM jobqueue_job WHERE id = :id AND %s
				LOCK IN SHARE MODE""".formatted(TRANSITIONS.holdsUniqueKey("")))
			.param("id", id)
			.query(Long.class)
			.optional();
	}

	/** A locking read: it sees the latest committed holder, where the caller's snapshot might not yet. */
	private Optional<Long> findHolder(String kind, String uniqueKey) {
		return jdbc.sql("""
				SELECT id FROM jobqueue_job
				WHERE kind = :kind AND unique_key = :uniqueKey AND %s
				LOCK IN SHARE MODE""".formatted(TRANSITIONS.holdsUniqueKey("")))
			.param("kind", kind)
			.param("uniqueKey", uniqueKey)
			.query(Long.class)
			.optional();
	}

	/** The statement with {@code unique_states} last among its columns and values. */
	private static String withUniqueStates(String insert) {
		return insert.replaceFirst("\\)\\s+VALUES\\s", ", unique_states)\nVALUES ").replaceFirst("\\)$", ", ?)");
	}

	/**
	 * The values of {@link #ROW}, then {@code unique_states} for a job that has them; the nullable ones typed, so that
	 * a null binds alike on both drivers, but for the run-at time: typed as a TIMESTAMP, MySQL Connector/J dropped its
	 * fraction of a second.
	 */
	private static List<Object> values(NewJob job) {
		List<Object> row = rowValues(job);
		if (job.uniqueStates() == 0) {
			return row;
		}
		List<Object> withStates = new ArrayList<>(row);
		withStates.add(job.uniqueStates());
		return withStates;
	}

	private static List<Object> rowValues(NewJob job) {
		return Arrays.asList(job.queue(), job.kind(), job.payload(), job.payloadVersion(), job.initialState(),
				job.priority(), MysqlValues.parameter(job.runAt()),
				Math.multiplyExact(job.delayMillis(), 1000L), job.maxAttempts(),
				new SqlParameterValue(Types.VARCHAR, job.uniqueKey()),
				new SqlParameterValue(Types.VARCHAR, job.concurrencyKey()),
				new SqlParameterValue(Types.INTEGER, job.keySlot() == null ? null : job.keySlot().limit()),
				job.keySlot() != null && job.keySlot().deadHolds(),
				new SqlParameterValue(Types.BIGINT, job.keySlot() == null ? null : job.keySlot().rateMillis()),
				new SqlParameterValue(Types.VARCHAR, job.traceContext()));
	}
}
