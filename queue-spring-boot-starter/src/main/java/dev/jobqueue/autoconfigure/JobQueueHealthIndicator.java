package dev.jobqueue.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.runtime.RoleLiveness;

/**
 * Up when the queue's database answers (asked by a {@link DatabaseProbe}, so that the check answers within a second
 * whatever the database does) and, on a worker node, the workers are running and their heartbeat
 * and every queue's claims have succeeded within half a lease. A role that keeps failing lives on and
 * tries again, so only its overdue success tells that this node extends no leases, or claims nothing.
 * An enqueue-only node is up as long as its database answers. Then the queue's health, from the last
 * sample ({@link QueueHealthThresholds}): a queue waiting too long, or the xmin horizon held too long, takes
 * it to OUT_OF_SERVICE or DOWN as {@code jobqueue.health.*} says.
 */
final class JobQueueHealthIndicator extends AbstractHealthIndicator implements AutoCloseable {

	private final DatabaseProbe database;

	private final String vendor;

	private final ObjectProvider<JobRuntime> runtime;

	private final QueueHealthThresholds thresholds;

	JobQueueHealthIndicator(DataSource dataSource, String vendor, ObjectProvider<JobRuntime> runtime,
			QueueHealthThresholds thresholds) {
		super("jobqueue health check failed");
		this.database = new DatabaseProbe(dataSource);
		this.vendor = vendor;
		this.runtime = runtime;
		this.thresholds = thresholds;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) throws Exception {
		builder.withDetail("database", vendor);
		Optional<String> unanswered = database.problem();
		if (unanswered.isPresent()) {
			builder.down().withDetail("reason", unanswered.get());
			return;
		}
		Status workers = workers(builder);
		builder.status(QueueHealthThresholds.worse(workers, thresholds.check(builder)));
	}

	/** The workers' status, with their details. */
	private Status workers(Health.Builder builder) {
		JobRuntime workers = runtime.getIfAvailable();
		if (workers == null) {
			builder.withDetail("worker", "disabled");
			return Status.UP;
		}
		RoleLiveness liveness = workers.liveness();
		liveness.fatal().ifPresent(error -> builder.withDetail("error", error.toString()));
		if (!workers.isRunning() || liveness.fatal().isPresent()) {
			builder.withDetail("worker", "stopped");
			return Status.DOWN;
		}
		builder.withDetail("worker", workers.owner());
		builder.withDetail("maintainer", workers.maintaining());
		List<RoleLiveness.Overdue> overdue = liveness.overdue();
		if (overdue.isEmpty()) {
			return Status.UP;
		}
		builder.withDetail("overdue", describe(overdue));
		return Status.DOWN;
	}

	/** Stops the database probe's thread with the application context. */
	@Override
	public void close() {
		database.close();
	}

	private static Map<String, String> describe(List<RoleLiveness.Overdue> overdue) {
		Map<String, String> described = new LinkedHashMap<>();
		overdue.forEach(role -> described.put(role.role(), "no successful pass since " + role.lastSuccess()
				+ " (allowed " + role.allowed() + ")"));
		return described;
	}
}
