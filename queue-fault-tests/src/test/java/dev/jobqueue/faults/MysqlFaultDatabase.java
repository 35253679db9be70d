package dev.jobqueue.faults;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.faults.app.FaultWorkerApplication;
import dev.jobqueue.faults.app.MysqlWriterName;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.support.MysqlTestDatabase;

/**
 * The MySQL or MariaDB database of the fault tests (the server of {@code JOBQUEUE_TEST_MYSQL_URL}). Its audit
 * triggers name the writer by the process its connection registered in {@code fault_connection}
 * ({@link MysqlWriterName}); times are UTC in {@code DATETIME(6)}, as in the queue's own columns.
 */
final class MysqlFaultDatabase implements FaultDatabase {

	private final MysqlTestDatabase database = new MysqlTestDatabase(4);

	private final DataSource dataSource = new MysqlWriterName(database.dataSource(), "fault-test");

	private final JobStore store;

	/** The audit first, through a connection that registers no writer: the table it would register in comes with it. */
	MysqlFaultDatabase() {
		createAudit(JdbcClient.create(database.dataSource()));
		store = JobStores.forDataSource(dataSource);
	}

	@Override
	public DataSource dataSource() {
		return dataSource;
	}

	@Override
	public JobStore store() {
		return store;
	}

	@Override
	public String jdbcUrl() {
		return database.jdbcUrl();
	}

	/**
	 * Lease 2 s heartbeated every 500 ms, as on PostgreSQL: a heartbeat can wait only for row locks, which the
	 * queue's statements hold for one short transaction, and the claims skip.
	 */
	@Override
	public Duration lease() {
		return Duration.ofSeconds(2);
	}

	@Override
	public Duration heartbeat() {
		return Duration.ofMillis(500);
	}

	@Override
	public void nameWriter(String writer) {
		jdbc().sql("REPLACE INTO fault_connection (id, writer) VALUES (CONNECTION_ID(), :writer)")
			.param("writer", writer)
			.update();
	}

	@Override
	public Object time(Instant instant) {
		return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
	}

	/**
	 * None of the process's sessions runs a statement or has a transaction open in InnoDB (a session that
	 * has read or written in its transaction is in {@code INNODB_TRX} until it ends, holding its locks).
	 */
	@Override
	public boolean holdsNothing(long pid) {
		return jdbc().sql("""
				SELECT count(*) FROM information_schema.PROCESSLIST p JOIN fault_connection c ON c.id = p.ID
				WHERE c.writer = :name
				  AND (p.COMMAND <> 'Sleep'
				       OR EXISTS (SELECT 1 FROM information_schema.INNODB_TRX t WHERE t.trx_mysql_thread_id = p.ID))""")
			.param("name", FaultWorkerApplication.applicationName(pid))
			.query(Long.class)
			.single() == 0;
	}

	@Override
	public void reset() {
		JdbcClient jdbc = jdbc();
		// DELETE, not TRUNCATE: TRUNCATE would wait for the metadata lock of any session still open on the table.
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

	/**
	 * The triggers go with the scenarios: other tests may share this database, and should neither fill the audit
	 * nor pay for it.
	 */
	@Override
	public void close() {
		try {
			dropTriggers(JdbcClient.create(database.dataSource()));
		}
		finally {
			database.close();
		}
	}

	private static void dropTriggers(JdbcClient jdbc) {
		jdbc.sql("DROP TRIGGER IF EXISTS fault_audit_job_insert").update();
		jdbc.sql("DROP TRIGGER IF EXISTS fault_audit_job_update").update();
	}

	/**
	 * The audit table and its triggers, the same columns as on PostgreSQL; the probes' tables. The writer is
	 * looked up by the connection's id, each time: a pooled connection keeps its id for as long as it lives. A
	 * connection that registered no name is audited as {@code unregistered-<id>}, which no invariant takes for
	 * a lease holder's process. {@code UTC_TIMESTAMP(6)} is the time the statement began, as the queue's own times in that statement are,
	 * so that a reap's audit row is never earlier than the lease expiry it compared against.
	 */
	private static void createAudit(JdbcClient jdbc) {
		jdbc.sql("""
				CREATE TABLE IF NOT EXISTS fault_connection (
				    id     BIGINT UNSIGNED PRIMARY KEY,
				    writer VARCHAR(100) NOT NULL
				) ENGINE = InnoDB""").update();
		jdbc.sql("""
				CREATE TABLE IF NOT EXISTS fault_audit (
				    seq          BIGINT AUTO_INCREMENT PRIMARY KEY,
				    job_id       BIGINT       NOT NULL,
				    at           DATETIME(6)  NOT NULL,
				    writer       VARCHAR(100) NOT NULL,
				    old_state    VARCHAR(16),
				    new_state    VARCHAR(16)  NOT NULL,
				    old_attempt  INT,
				    new_attempt  INT          NOT NULL,
				    max_attempts INT          NOT NULL,
				    old_token    BIGINT,
				    new_token    BIGINT       NOT NULL,
				    old_owner    VARCHAR(255),
				    new_owner    VARCHAR(255),
				    old_expires  DATETIME(6),
				    new_expires  DATETIME(6),
				    error        TEXT
				) ENGINE = InnoDB""").update();
		// MySQL has no CREATE OR REPLACE TRIGGER, and MySQL 8 no IF NOT EXISTS for triggers before 8.0.29.
		dropTriggers(jdbc);
		jdbc.sql("""
				CREATE TRIGGER fault_audit_job_insert AFTER INSERT ON jobqueue_job FOR EACH ROW
				INSERT INTO fault_audit (job_id, at, writer, new_state, new_attempt, max_attempts, new_token,
				                         new_owner, new_expires, error)
				VALUES (NEW.id, UTC_TIMESTAMP(6),
				        COALESCE((SELECT writer FROM fault_connection WHERE id = CONNECTION_ID()),
				                 CONCAT('unregistered-', CONNECTION_ID())),
				        NEW.state, NEW.attempt, NEW.max_attempts, NEW.lease_token, NEW.lease_owner, NEW.lease_expires_at,
				        LEFT(NEW.last_error, 200))""").update();
		jdbc.sql("""
				CREATE TRIGGER fault_audit_job_update AFTER UPDATE ON jobqueue_job FOR EACH ROW
				INSERT INTO fault_audit (job_id, at, writer, old_state, new_state, old_attempt, new_attempt,
				                         max_attempts, old_token, new_token, old_owner, new_owner, old_expires,
				                         new_expires, error)
				VALUES (NEW.id, UTC_TIMESTAMP(6),
				        COALESCE((SELECT writer FROM fault_connection WHERE id = CONNECTION_ID()),
				                 CONCAT('unregistered-', CONNECTION_ID())),
				        OLD.state, NEW.state, OLD.attempt, NEW.attempt, NEW.max_attempts, OLD.lease_token,
				        NEW.lease_token, OLD.lease_owner, NEW.lease_owner, OLD.lease_expires_at, NEW.lease_expires_at,
				        LEFT(NEW.last_error, 200))""").update();
		jdbc.sql("""
				CREATE TABLE IF NOT EXISTS fault_execution (
				    id          BIGINT AUTO_INCREMENT PRIMARY KEY,
				    job_id      BIGINT      NOT NULL,
				    attempt     INT         NOT NULL,
				    lease_token BIGINT      NOT NULL,
				    pid         BIGINT      NOT NULL,
				    started_at  DATETIME(6) NOT NULL,
				    finished_at DATETIME(6)
				) ENGINE = InnoDB""").update();
		jdbc.sql("CREATE TABLE IF NOT EXISTS fault_effect (job_id BIGINT NOT NULL) ENGINE = InnoDB").update();
	}
}
