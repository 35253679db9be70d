package dev.jobqueue.faults.app;

import java.sql.Timestamp;
import java.time.Instant;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Component;

import dev.jobqueue.JobContext;
import dev.jobqueue.spring.JobHandler;

/**
 * The probe job kinds. {@code probe} does what its payload says; {@code probe-tx} is the same handler run
 * in the job's completion transaction, and adds one row to {@code fault_effect}: its effect, which must
 * exist exactly once per succeeded job whatever crashes.
 */
@Component
class ProbeJobs {

	private final JdbcClient jdbc;

	ProbeJobs(DataSource dataSource) {
		this.jdbc = JdbcClient.create(dataSource);
	}

	@JobHandler(kind = "probe")
	void probe(Probe probe, JobContext context) throws InterruptedException {
		long execution = probe.record() ? recordStart(context) : 0;
		if (probe.halt()) {
			Runtime.getRuntime().halt(99);
		}
		work(probe);
		if (context.attempt() <= probe.failTimes()) {
			throw new IllegalStateException("probe failure on attempt " + context.attempt() + " of job " + context.jobId());
		}
		if (probe.errorChars() > 0) {
			throw new IllegalStateException(errorMessage(probe));
		}
		if (probe.record()) {
			recordEnd(execution);
		}
	}

	@JobHandler(kind = "probe-tx", transactional = true)
	void probeInTransaction(Probe probe, JobContext context) throws InterruptedException {
		probe(probe, context);
		jdbc.sql("INSERT INTO fault_effect (job_id) VALUES (:job)").param("job", context.jobId()).update();
	}

	/**
	 * The execution's id comes back as a generated key, not by {@code RETURNING}: MySQL 8 has no
	 * {@code INSERT … RETURNING}, and MySQL Connector/J refuses it even on MariaDB, which has.
	 */
	long recordStart(JobContext context) {
		KeyHolder id = new GeneratedKeyHolder();
		jdbc.sql("""
				INSERT INTO fault_execution (job_id, attempt, lease_token, pid, started_at)
				VALUES (:job, :attempt, :token, :pid, :now)""")
			.param("job", context.jobId())
			.param("attempt", context.attempt())
			.param("token", context.leaseToken())
			.param("pid", ProcessHandle.current().pid())
			.param("now", now())
			.update(id, "id");
		return id.getKey().longValue();
	}

	void recordEnd(long execution) {
		jdbc.sql("UPDATE fault_execution SET finished_at = :now WHERE id = :id")
			.param("now", now())
			.param("id", execution)
			.update();
	}

	/**
	 * This host's clock, which every process of a scenario shares, to the millisecond: executions of one
	 * concurrency key follow each other within milliseconds, and SQLite's CURRENT_TIMESTAMP has whole seconds.
	 */
	private static Timestamp now() {
		return Timestamp.from(Instant.now());
	}

	private static void work(Probe probe) throws InterruptedException {
		if (!probe.ignoreInterrupt()) {
			Thread.sleep(probe.sleepMillis());
			return;
		}
		long end = System.nanoTime() + probe.sleepMillis() * 1_000_000;
		while (System.nanoTime() < end) {
			try {
				Thread.sleep(Math.max(1, (end - System.nanoTime()) / 1_000_000));
			}
			catch (InterruptedException ignored) {
				// This probe plays a handler that never looks at its lease: it finishes its work regardless.
			}
		}
	}

	private static String errorMessage(Probe probe) {
		StringBuilder message = new StringBuilder(probe.errorChars());
		while (message.length() < probe.errorChars()) {
			message.append(probe.nulInError() && message.length() % 100 == 0 ? '\u0000' : 'x');
		}
		return message.toString();
	}
}
