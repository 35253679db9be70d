package dev.jobqueue.benchmarks;

import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.stream.IntStream;

import org.postgresql.PGConnection;

import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.postgres.PostgresDialect;

/**
 * Four ways to insert a batch of jobs, measured against each other to choose the store's bulk enqueue:
 * the store's own (ids drawn in one statement, then COPY straight into the table), the unnest() of
 * parallel arrays that the store keeps for jobs with a unique key, one multi-row VALUES insert, and COPY
 * into a temporary table followed by one INSERT … SELECT. The last three honour unique keys in the
 * statement (ON CONFLICT on the partial unique index); the store's COPY takes only jobs without one.
 */
final class BulkVariants {

	private static final int BATCH = 1000;

	private final Report report;

	private final int jobs;

	BulkVariants(Report report, int jobs) {
		this.report = report;
		this.jobs = jobs;
	}

	void run(Database database) throws SQLException, IOException {
		JobqueueContender store = new JobqueueContender(database);
		// Without notifications, so that only the insert statements are compared.
		JobStore statements = PostgresDialect.jobStore(database.dataSource(), false);
		for (int round = 0; round < 2; round++) {
			boolean measured = round == 1;
			store.reset();
			long start = System.nanoTime();
			for (int from = 0; from < jobs; from += BATCH) {
				statements.enqueues().enqueueAll(IntStream.range(from, Math.min(jobs, from + BATCH)).mapToObj(BulkVariants::job).toList());
			}
			figure(measured, "ids drawn, then COPY (the store's)", System.nanoTime() - start);
			store.reset();
			try (Connection connection = database.dataSource().getConnection()) {
				start = System.nanoTime();
				for (int from = 0; from < jobs; from += BATCH) {
					unnestArrays(connection, Math.min(BATCH, jobs - from));
				}
				figure(measured, "unnest arrays", System.nanoTime() - start);
				store.reset();
				start = System.nanoTime();
				for (int from = 0; from < jobs; from += BATCH) {
					multiRowValues(connection, Math.min(BATCH, jobs - from));
				}
				figure(measured, "multi-row VALUES", System.nanoTime() - start);
				store.reset();
				start = System.nanoTime();
				for (int from = 0; from < jobs; from += BATCH) {
					copyThenInsert(connection, Math.min(BATCH, jobs - from));
				}
				figure(measured, "COPY + INSERT SELECT", System.nanoTime() - start);
			}
		}
		store.reset();
	}

	private static NewJob job(int i) {
		return new NewJob("default", "bench", Integer.toString(i), 1, 5, null, Duration.ZERO, 3, null);
	}

	private void figure(boolean measured, String variant, long nanos) {
		if (measured) {
			report.figure("bulk-variants", variant, "jobs/s", Throughput.perSecond(jobs, nanos), "1/s",
					jobs + " jobs in batches of " + BATCH + ", second of two rounds");
		}
	}

	private static void multiRowValues(Connection connection, int rows) throws SQLException {
		StringBuilder sql = new StringBuilder("""
				INSERT INTO jobqueue_job (queue, kind, payload, state, priority, run_at, max_attempts, unique_key) VALUES """);
		for (int i = 0; i < rows; i++) {
			sql.append(i == 0 ? "" : ",").append("(?, ?, CAST(? AS jsonb), 'ready', ?, now(), ?, ?)");
		}
		sql.append("""
				 ON CONFLICT (kind, unique_key) WHERE unique_key IS NOT NULL AND state IN ('waiting', 'blocked', 'ready', 'running') DO NOTHING
				RETURNING id""");
		try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
			int p = 1;
			for (int i = 0; i < rows; i++) {
				statement.setString(p++, "default");
				statement.setString(p++, "bench");
				statement.setString(p++, Integer.toString(i));
				statement.setInt(p++, 5);
				statement.setInt(p++, 3);
				statement.setString(p++, null);
			}
			statement.executeQuery().close();
		}
	}

	private static void unnestArrays(Connection connection, int rows) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("""
				INSERT INTO jobqueue_job (id, queue, kind, payload, state, priority, run_at, max_attempts, unique_key)
				SELECT nextval(pg_get_serial_sequence('jobqueue_job', 'id')), queue, kind, CAST(payload AS jsonb),
				       'ready', priority, now(), max_attempts, unique_key
				FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS int[]),
				            CAST(? AS int[]), CAST(? AS text[]))
				     WITH ORDINALITY AS t(queue, kind, payload, priority, max_attempts, unique_key, ord)
				ORDER BY ord
				ON CONFLICT (kind, unique_key) WHERE unique_key IS NOT NULL AND state IN ('waiting', 'blocked', 'ready', 'running') DO NOTHING
				RETURNING id""")) {
			statement.setArray(1, connection.createArrayOf("text", IntStream.range(0, rows).mapToObj(i -> "default").toArray()));
			statement.setArray(2, connection.createArrayOf("text", IntStream.range(0, rows).mapToObj(i -> "bench").toArray()));
			statement.setArray(3, connection.createArrayOf("text", IntStream.range(0, rows).mapToObj(Integer::toString).toArray()));
			statement.setArray(4, connection.createArrayOf("int4", IntStream.range(0, rows).mapToObj(i -> 5).toArray()));
			statement.setArray(5, connection.createArrayOf("int4", IntStream.range(0, rows).mapToObj(i -> 3).toArray()));
			statement.setArray(6, connection.createArrayOf("text", new String[rows]));
			statement.executeQuery().close();
		}
	}

	/**
	 * In a transaction of its own: the staging table empties at every commit, so in auto-commit mode the
	 * COPY's rows would be gone before the INSERT reads them.
	 */
	private static void copyThenInsert(Connection connection, int rows) throws SQLException, IOException {
		connection.setAutoCommit(false);
		try (Statement statement = connection.createStatement()) {
			statement.execute("""
					CREATE TEMP TABLE IF NOT EXISTS bench_staging (queue text, kind text, payload text, priority int,
					                                                max_attempts int, unique_key text) ON COMMIT DELETE ROWS""");
			StringBuilder data = new StringBuilder();
			for (int i = 0; i < rows; i++) {
				data.append("default\tbench\t").append(i).append("\t5\t3\t\\N\n");
			}
			connection.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY bench_staging FROM STDIN",
					new StringReader(data.toString()));
			statement.executeQuery("""
					INSERT INTO jobqueue_job (queue, kind, payload, state, priority, run_at, max_attempts, unique_key)
					SELECT queue, kind, CAST(payload AS jsonb), 'ready', priority, now(), max_attempts, unique_key
					FROM bench_staging
					ON CONFLICT (kind, unique_key) WHERE unique_key IS NOT NULL AND state IN ('waiting', 'blocked', 'ready', 'running') DO NOTHING
					RETURNING id""").close();
			connection.commit();
		}
		finally {
			connection.setAutoCommit(true);
		}
	}
}
