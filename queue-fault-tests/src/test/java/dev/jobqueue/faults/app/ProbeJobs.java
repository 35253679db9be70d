package dev.jobqueue.faults.app;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;
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
			jdbc.sql("UPDATE fault_execution SET finished_at = CURRENT_TIMESTAMP WHERE id = :id")
				.param("id", execution)
				.update();
		}
	}

	@JobHandler(kind = "probe-tx", transactional = true)
	void probeInTransaction(Probe probe, JobContext context) throws InterruptedException {
		probe(probe, context);
		jdbc.sql("INSERT INTO fault_effect (job_id) VALUES (:job)").param("job", context.jobId()).update();
	}

	private long recordStart(JobContext context) {
		return jdbc.sql("""
				INSERT INTO fault_execution (job_id, attempt, lease_token, pid)
				VALUES (:job, :attempt, :token, :pid) RETURNING id""")
			.param("job", context.jobId())
			.param("attempt", context.attempt())
			.param("token", context.leaseToken())
			.param("pid", ProcessHandle.current().pid())
			.query(Long.class)
			.single();
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
