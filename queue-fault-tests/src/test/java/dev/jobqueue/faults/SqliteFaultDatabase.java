package dev.jobqueue.faults;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceUtils;

import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.faults.app.SqliteWriterName;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.support.SqliteTestDatabase;

/**
 * The SQLite database of the fault tests: a file shared by the test and the worker JVMs. Its audit
 * triggers name the writer through {@code fault_writer()} ({@link SqliteWriterName}); times are
 * milliseconds since the epoch, as in the queue's own columns.
 */
final class SqliteFaultDatabase implements FaultDatabase {

	private final SqliteTestDatabase database = new SqliteTestDatabase(4);

	private final DataSource dataSource = new SqliteWriterName(database.dataSource(), "fault-test");

	private final JobStore store = JobStores.forDataSource(dataSource);

	SqliteFaultDatabase() {
		createAudit(jdbc());
	}

	@Override
	public DataSource dataSource() {
		return dataSource;
	}

	@Override
	public JobStore store() {
		return store;
	}

	/** Other processes wait for the write lock as long as the queue's own connections do. */
	@Override
	public String jdbcUrl() {
		return database.jdbcUrl();
	}

	/**
	 * Lease 7 s heartbeated every second: a heartbeat may wait up to 5 s (the busy timeout) for another
	 * process's write lock, and must still land before the lease ends.
	 */
	@Override
	public Duration lease() {
		return Duration.ofSeconds(7);
	}

	@Override
	public Duration heartbeat() {
		return Duration.ofSeconds(1);
	}

	@Override
	public void nameWriter(String writer) {
		SqliteWriterName.register(DataSourceUtils.getConnection(dataSource), writer);
	}

	@Override
	public Object time(Instant instant) {
		return instant.toEpochMilli();
	}

	/**
	 * Whether the write lock is free, taken and given back at once without waiting. A process frozen
	 * while reading stops no one in WAL mode; one frozen while writing would stop every other.
	 */
	@Override
	public boolean holdsNothing(long pid) {
		try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database.file() + "?busy_timeout=0");
				Statement statement = connection.createStatement()) {
			statement.execute("BEGIN IMMEDIATE");
			statement.execute("ROLLBACK");
			return true;
		}
		catch (SQLException busy) {
			return false;
		}
	}

	@Override
	public void reset() {
		JdbcClient jdbc = jdbc();
		jdbc.sql("DELETE FROM jobqueue_job").update();
		jdbc.sql("DELETE FROM jobqueue_job_step").update();
		jdbc.sql("DELETE FROM jobqueue_job_dependency").update();
		jdbc.sql("DELETE FROM jobqueue_batch").update();
		jdbc.sql("DELETE FROM jobqueue_batch_job").update();
		jdbc.sql("DELETE FROM jobqueue_schedule").update();
		jdbc.sql("DELETE FROM fault_audit").update();
		jdbc.sql("DELETE FROM fault_execution").update();
		jdbc.sql("DELETE FROM fault_effect").update();
	}

	@Override
	public void close() {
		database.close();
	}

	/** The audit table and its triggers, the same columns as on PostgreSQL; the probes' tables. */
	private static void createAudit(JdbcClient jdbc) {
		jdbc.sql("""
				CREATE TABLE IF NOT EXISTS fault_audit (
				    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
				    job_id       INTEGER NOT NULL,
				    at           INTEGER NOT NULL,
				    writer       TEXT    NOT NULL,
				    old_state    TEXT,
				    new_state    TEXT    NOT NULL,
				    old_attempt  INTEGER,
				    new_attempt  INTEGER NOT NULL,
				    max_attempts INTEGER NOT NULL,
				    old_token    INTEGER,
				    new_token    INTEGER NOT NULL,
				    old_owner    TEXT,
				    new_owner    TEXT,
				    old_expires  INTEGER,
				    new_expires  INTEGER,
				    error        TEXT
				)""").update();
		jdbc.sql("""
				CREATE TRIGGER IF NOT EXISTS fault_audit_job_insert AFTER INSERT ON jobqueue_job
				BEGIN
				    INSERT INTO fault_audit (job_id, at, writer, new_state, new_attempt, max_attempts, new_token,
				                             new_owner, new_expires, error)
				    VALUES (NEW.id, CAST(round(unixepoch('subsec') * 1000) AS INTEGER), fault_writer(), NEW.state,
				            NEW.attempt, NEW.max_attempts, NEW.lease_token, NEW.lease_owner, NEW.lease_expires_at,
				            substr(NEW.last_error, 1, 200));
				END""").update();
		jdbc.sql("""
				CREATE TRIGGER IF NOT EXISTS fault_audit_job_update AFTER UPDATE ON jobqueue_job
				BEGIN
				    INSERT INTO fault_audit (job_id, at, writer, old_state, new_state, old_attempt, new_attempt,
				                             max_attempts, old_token, new_token, old_owner, new_owner, old_expires,
				                             new_expires, error)
				    VALUES (NEW.id, CAST(round(unixepoch('subsec') * 1000) AS INTEGER), fault_writer(), OLD.state,
				            NEW.state, OLD.attempt, NEW.attempt, NEW.max_attempts, OLD.lease_token, NEW.lease_token,
				            OLD.lease_owner, NEW.lease_owner, OLD.lease_expires_at, NEW.lease_expires_at,
				            substr(NEW.last_error, 1, 200));
				END""").update();
		jdbc.sql("""
				CREATE TABLE IF NOT EXISTS fault_execution (
				    id          INTEGER PRIMARY KEY AUTOINCREMENT,
				    job_id      INTEGER NOT NULL,
				    attempt     INTEGER NOT NULL,
				    lease_token INTEGER NOT NULL,
				    pid         INTEGER NOT NULL,
				    started_at  INTEGER NOT NULL,
				    finished_at INTEGER
				)""").update();
		jdbc.sql("CREATE TABLE IF NOT EXISTS fault_effect (job_id INTEGER NOT NULL)").update();
	}
}
