package dev.jobqueue.faults.app;

import java.util.List;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.jobqueue.JobContext;
import dev.jobqueue.NonRetryableException;
import dev.jobqueue.spring.JobHandler;

/**
 * The {@code steps} kind: three steps, each working for its probe's time. A step's work first looks for its own
 * record: found, the step is running again after it was recorded, the one thing resumable steps must never do, and
 * the job ends dead saying so, which the scenario's count of succeeded jobs catches.
 */
@Component
class StepJobs {

	static final List<String> STEPS = List.of("reserve", "charge", "ship");

	private final JdbcClient jdbc;

	StepJobs(DataSource dataSource) {
		this.jdbc = JdbcClient.create(dataSource);
	}

	@JobHandler(kind = "steps", maxAttempts = 10)
	String run(Probe probe, JobContext context) {
		StringBuilder done = new StringBuilder();
		for (String step : STEPS) {
			done.append(context.step(step, String.class, () -> work(context, step, probe))).append(' ');
		}
		return done.toString().trim();
	}

	private String work(JobContext context, String step, Probe probe) {
		long recorded = jdbc.sql("SELECT count(*) FROM jobqueue_job_step WHERE job_id = :job AND name = :step")
			.param("job", context.jobId())
			.param("step", step)
			.query(Long.class)
			.single();
		if (recorded > 0) {
			throw new NonRetryableException("step '" + step + "' of job " + context.jobId() + " runs again in attempt "
					+ context.attempt() + ", after it was recorded");
		}
		try {
			Thread.sleep(probe.sleepMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted in step '" + step + "'", ex);
		}
		return step + "@" + context.attempt();
	}
}
