package dev.jobqueue.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.JobState;

/**
 * The {@link DependencyStore} of every dialect: its statements are plain SQL that PostgreSQL, MySQL and SQLite read
 * alike, written once. A dialect gives the SQL of its clock, how its booleans bind, how it runs a statement
 * ({@link StatementRunner}) and its own enqueue.
 */
public final class DependencyStatements implements DependencyStore {

	private final JdbcClient jdbc;

	private final StatementRunner statements;

	private final BatchTransactions transactions;

	private final EnqueueStore enqueues;

	private final TransitionSql transitions;

	private final String now;

	/**
	 * @param transitions the dialect's rendering of the state machine's conditions, which also says how its booleans bind
	 * @param now the SQL of the database's clock as the dialect stores times
	 */
	public DependencyStatements(JdbcClient jdbc, StatementRunner statements, BatchTransactions transactions,
			EnqueueStore enqueues, TransitionSql transitions, String now) {
		this.jdbc = jdbc;
		this.statements = statements;
		this.transactions = transactions;
		this.enqueues = enqueues;
		this.transitions = transitions;
		this.now = now;
	}

	@Override
	public EnqueueResult enqueue(NewJob job) {
		if (!job.dependencies().waits()) {
			return enqueues.enqueue(job);
		}
		return inOneTransaction(() -> {
			refuseMissing(job.dependencies().after());
			EnqueueResult result = enqueues.enqueue(job);
			if (result.inserted()) {
				record(result.id(), job.dependencies());
				markDependedOn(job.dependencies().after());
			}
			return result;
		});
	}

	@Override
	public <T> T inOneTransaction(Supplier<T> work) {
		return transactions.run(work);
	}

	private void refuseMissing(List<Long> after) {
		Set<Long> missing = new HashSet<>(after);
		for (List<Long> chunk : IdChunks.of(after)) {
			missing.removeAll(statements.read("dependencies' ids", () -> jdbc.sql(
					"SELECT id FROM jobqueue_job WHERE id IN (:ids)").param("ids", chunk).query(Long.class).list()));
		}
		if (!missing.isEmpty()) {
			throw new IllegalArgumentException("after names jobs that do not exist: " + missing.stream().sorted().toList());
		}
	}

	private void record(long id, NewJob.Dependencies dependencies) {
		for (List<Long> chunk : IdChunks.of(dependencies.after())) {
			List<Object> values = new ArrayList<>(chunk.size() * 3);
			for (Long dependsOn : chunk) {
				values.add(id);
				values.add(dependsOn);
				values.add(transitions.bindBoolean(dependencies.required()));
			}
			String rows = String.join(", ", Collections.nCopies(chunk.size(), "(?, ?, ?)"));
			statements.write("record dependencies", () -> jdbc.sql(
					"INSERT INTO jobqueue_job_dependency (job_id, depends_on, required) VALUES " + rows)
				.params(values)
				.update());
		}
	}

	/**
	 * Marks the dependencies that no worker holds yet as depended on, so that the worker that ends one settles the
	 * new job at once; one claimed already is left to the sweep. The update locks those rows until the enqueue's
	 * transaction ends, and only a claim of them waits for that (PostgreSQL's passes them over until then).
	 */
	private void markDependedOn(List<Long> after) {
		for (List<Long> chunk : IdChunks.of(after)) {
			statements.write("mark dependencies", () -> jdbc.sql("""
					UPDATE jobqueue_job SET has_dependents = :yes
					WHERE id IN (:ids) AND state IN ('waiting', 'blocked', 'ready') AND has_dependents = :no""")
				.param("ids", chunk)
				.param("yes", transitions.bindBoolean(true))
				.param("no", transitions.bindBoolean(false))
				.update());
		}
	}

	@Override
	public List<Long> waitingFor(Collection<Long> finished) {
		List<Long> waiting = new ArrayList<>();
		for (List<Long> chunk : IdChunks.of(List.copyOf(finished))) {
			waiting.addAll(statements.read("waiting dependents", () -> jdbc.sql("""
					SELECT DISTINCT d.job_id
					FROM jobqueue_job w JOIN jobqueue_job_dependency d ON d.job_id = w.id
					WHERE d.depends_on IN (:ids) AND w.state = 'waiting'""")
				.param("ids", chunk)
				.query(Long.class)
				.list()));
		}
		return waiting;
	}

	@Override
	public List<Long> waitingAfter(long after, int max) {
		return statements.read("waiting jobs", () -> jdbc.sql("""
				SELECT id FROM jobqueue_job WHERE state = 'waiting' AND id > :after ORDER BY id LIMIT :max""")
			.param("after", after)
			.param("max", max)
			.query(Long.class)
			.list());
	}

	@Override
	public List<WaitingJob> read(Collection<Long> ids) {
		Map<Long, WaitingJob> byId = new LinkedHashMap<>();
		for (List<Long> chunk : IdChunks.of(List.copyOf(ids))) {
			statements.read("waiting jobs' dependencies", () -> {
				jdbc.sql("""
					SELECT w.id, w.queue, w.concurrency_key, d.depends_on, d.required, j.state
					FROM jobqueue_job w
					JOIN jobqueue_job_dependency d ON d.job_id = w.id
					LEFT JOIN jobqueue_job j ON j.id = d.depends_on
					WHERE w.id IN (:ids) AND w.state = 'waiting'
					ORDER BY w.id, d.depends_on""")
				.param("ids", chunk)
				.query((ResultSet rs) -> add(byId, rs));
				return null;
			});
		}
		return List.copyOf(byId.values());
	}

	private static void add(Map<Long, WaitingJob> byId, ResultSet rs) throws SQLException {
		long id = rs.getLong("id");
		WaitingJob job = byId.get(id);
		if (job == null) {
			job = new WaitingJob(id, rs.getString("queue"), rs.getString("concurrency_key"), new ArrayList<>());
			byId.put(id, job);
		}
		String state = rs.getString("state");
		job.dependencies().add(new WaitingJob.Dependency(rs.getLong("depends_on"),
				state == null ? null : JobState.valueOf(state), rs.getBoolean("required")));
	}

	@Override
	public boolean promote(long id) {
		return statements.write("promote a waiting job", () -> jdbc.sql("""
				UPDATE jobqueue_job SET state = %s WHERE id = :id AND state = 'waiting'""".formatted(
				transitions.entryState("")))
			.param("id", id)
			.update()) == 1;
	}

	@Override
	public boolean cancel(long id, String reason) {
		return statements.write("cancel a waiting job", () -> jdbc.sql("""
				UPDATE jobqueue_job SET state = 'cancelled', finished_at = %s, last_error = :reason
				WHERE id = :id AND state = 'waiting'""".formatted(now))
			.param("id", id)
			.param("reason", reason)
			.update()) == 1;
	}

	@Override
	public List<Long> dependenciesOf(long id) {
		return statements.read("a job's dependencies", () -> jdbc.sql("""
				SELECT depends_on FROM jobqueue_job_dependency WHERE job_id = :id ORDER BY depends_on""")
			.param("id", id)
			.query(Long.class)
			.list());
	}
}
