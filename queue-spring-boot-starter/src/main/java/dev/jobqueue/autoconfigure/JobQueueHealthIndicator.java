package dev.jobqueue.autoconfigure;

import java.sql.Connection;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import dev.jobqueue.runtime.JobRuntime;

/**
 * Up when the queue's database answers and, on a worker node, the workers are running. An enqueue-only
 * node is up as long as its database answers.
 */
final class JobQueueHealthIndicator extends AbstractHealthIndicator {

	private static final int VALIDATION_TIMEOUT_SECONDS = 2;

	private final DataSource dataSource;

	private final String vendor;

	private final ObjectProvider<JobRuntime> runtime;

	JobQueueHealthIndicator(DataSource dataSource, String vendor, ObjectProvider<JobRuntime> runtime) {
		super("jobqueue health check failed");
		this.dataSource = dataSource;
		this.vendor = vendor;
		this.runtime = runtime;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) throws Exception {
		builder.withDetail("database", vendor);
		try (Connection connection = dataSource.getConnection()) {
			if (!connection.isValid(VALIDATION_TIMEOUT_SECONDS)) {
				builder.down().withDetail("reason", "the database did not answer within "
						+ VALIDATION_TIMEOUT_SECONDS + " s");
				return;
			}
		}
		JobRuntime workers = runtime.getIfAvailable();
		if (workers == null) {
			builder.up().withDetail("worker", "disabled");
		}
		else if (workers.isRunning()) {
			builder.up().withDetail("worker", workers.owner());
		}
		else {
			builder.down().withDetail("worker", "stopped");
		}
	}
}
