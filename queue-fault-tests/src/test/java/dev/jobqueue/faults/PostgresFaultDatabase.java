package dev.jobqueue.faults;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.faults.app.FaultWorkerApplication;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.support.PostgresTestDatabase;

/**
 * The PostgreSQL database of the fault tests. The audit trigger names the writer by the application name
 * of its connection, which every worker sets to {@code fault-worker-<pid>}.
 */
final class PostgresFaultDatabase implements FaultDatabase {

	private final PostgresTestDatabase database = new PostgresTestDatabase(4);

	PostgresFaultDatabase() {
		JdbcClient jdbc = jdbc();
		jdbc.sql("""
				CREATE TABLE IF NOT EXISTS fault_audit (
				    seq         bigserial PRIMARY KEY,
				    job_id      bigint      NOT NULL,
				    at          timestamptz NOT NULL DEFAULT clock_timestamp(),
				    writer      text        NOT NULL DEFAULT current_setting('application_name'),
				    old_state   text,
				    new_state   text        NOT NULL,
				    old_attempt integer,
				    new_attempt integer     NOT NULL,
				    max_attempts integer    NOT NULL,
				    old_token   bigint,
				    new_token   bigint      NOT NULL,
				    old_owner   text,
				    new_owner   text,
				    old_expires timestamptz,
				    new_expires timestamptz,
				    error       text
				)""").update();
		// AFTER ... FOR EACH ROW sees exactly what each statement changed, in commit-independent order (seq).
		jdbc.sql("""
				CREATE OR REPLACE FUNCTION fault_audit_job() RETURNS trigger AS $$
				BEGIN
				    IF TG_OP = 'INSERT' THEN
				        INSERT INTO fault_audit (job_id, new_state, new_attempt, max_attempts, new_token, new_owner,
				                                 new_expires, error)
				        VALUES (NEW.id, NEW.state, NEW.attempt, NEW.max_attempts, NEW.lease_token, NEW.lease_owner,
				                NEW.lease_expires_at, left(NEW.last_error, 200));
				    ELSE
				        INSERT INTO fault_audit (job_id, old_state, new_state, old_attempt, new_attempt, max_attempts,
				                                 old_token, new_token, old_owner, new_owner, old_expires, new_expires, error)
				        VALUES (NEW.id, OLD.state, NEW.state, OLD.attempt, NEW.attempt, NEW.max_attempts,
				                OLD.lease_token, NEW.lease_token, OLD.lease_owner, NEW.lease_owner,
				                OLD.lease_expires_at, NEW.lease_expires_at, left(NEW.last_error, 200));
				    END IF;
				    RETURN NULL;
				END $$ LANGUAGE plpgsql""").update();
		jdbc.sql("""
				CREATE OR REPLACE TRIGGER fault_audit_job AFTER INSERT OR UPDATE ON jobqueue_job
				FOR EACH ROW EXECUTE FUNCTION fault_audit_job()""").update();
		jdbc.sql("""
				CREATE TABLE IF NOT EXISTS fault_execution (
				    id          bigserial PRIMARY KEY,
				    job_id      bigint      NOT NULL,
				    attempt     integer     NOT NULL,
				    lease_token bigint      NOT NULL,
				    pid         bigint      NOT NULL,
				    started_at  timestamptz NOT NULL,
				    finished_at timestamptz
				)""").update();
		jdbc.sql("CREATE TABLE IF NOT EXISTS fault_effect (job_id bigint NOT NULL)").update();
	}

	@Override
	public void reset() {
		jdbc().sql("TRUNCATE jobqueue_job, jobqueue_job_step, jobqueue_job_dependency, jobqueue_batch, jobqueue_batch_job, jobqueue_schedule, fault_audit, fault_execution, fault_effect").update();
	}

	@Override
	public DataSource dataSource() {
		return database.dataSource();
	}

	@Override
	public JobStore store() {
		return database.store();
	}

	@Override
	public String jdbcUrl() {
		return database.jdbcUrl();
	}

	/** Lease 2 s heartbeated every 500 ms: a heartbeat here waits for no lock of another process. */
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
		jdbc().sql("SELECT set_config('application_name', :writer, true)").param("writer", writer).query(String.class)
			.single();
	}

	@Override
	public Object time(Instant instant) {
		return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
	}

	/** A session of the process idle outside a transaction holds no lock; any other state may. */
	@Override
	public boolean holdsNothing(long pid) {
		return jdbc().sql("""
				SELECT count(*) FROM pg_stat_activity
				WHERE application_name = :name AND state IS DISTINCT FROM 'idle'""")
			.param("name", FaultWorkerApplication.applicationName(pid))
			.query(Long.class)
			.single() == 0;
	}

	@Override
	public void close() {
		database.close();
	}
}
