package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The queue's events as Micrometer meters: jobs enqueued and completed (by queue, kind and outcome), how
 * long they waited past their due time (by queue and kind, and by queue alone as a histogram) and how long
 * they ran, jobs the reaper gave back, the fires and misfires of schedules, and whether this node is the one
 * that runs maintenance.
 */
final class MicrometerJobListener implements JobListener {

	/**
	 * The lag histogram's range: a claim within a millisecond of its enqueue's notification up to a backlog an
	 * hour deep; beyond, the last bucket counts it. Some 70 buckets per queue.
	 */
	private static final Duration LAG_RANGE_LOW = Duration.ofMillis(1);

	private static final Duration LAG_RANGE_HIGH = Duration.ofHours(1);

	private final MeterRegistry registry;

	private final AtomicInteger maintaining = new AtomicInteger();

	MicrometerJobListener(MeterRegistry registry) {
		this.registry = registry;
		// Every other meter is tagged by queue and kind, known at the first event; this one has no tags and
		// is there from startup, at 0, so that a dashboard or alert on it finds it before the first reap.
		reaped();
		Gauge.builder("jobqueue.maintainer", maintaining, AtomicInteger::get)
			.description("1 while this node holds the maintenance lease and runs the reaper, pruner and vacuum for "
					+ "every node, 0 otherwise")
			.register(registry);
	}

	@Override
	public void onEnqueued(String queue, String kind) {
		Counter.builder("jobqueue.jobs.enqueued")
			.description("Jobs enqueued by this node")
			.tags("queue", queue, "kind", kind)
			.register(registry)
			.increment();
	}

	@Override
	public void onStarted(JobContext job, Duration wait) {
		Timer.builder("jobqueue.jobs.wait")
			.description("Time from a job's due time to the start of its execution")
			.tags("queue", job.queue(), "kind", job.kind())
			.register(registry)
			.record(wait.isNegative() ? Duration.ZERO : wait);
		Timer.builder("jobqueue.queue.lag")
			.description("Time from a job's due time (its enqueue, for a job due at once) to the start of its "
					+ "execution, by queue alone, with a percentile histogram that adds up across nodes")
			.tags("queue", job.queue())
			.publishPercentileHistogram()
			.minimumExpectedValue(LAG_RANGE_LOW)
			.maximumExpectedValue(LAG_RANGE_HIGH)
			.register(registry)
			.record(wait.isNegative() ? Duration.ZERO : wait);
	}

	@Override
	public void onFinished(JobContext job, Outcome outcome, Duration execution) {
		Counter.builder("jobqueue.jobs.completed")
			.description("Executions finished by this node, by outcome (succeeded, retried, dead, lease_lost, released, snoozed, cancelled)")
			.tags("queue", job.queue(), "kind", job.kind(), "outcome", outcome.tag())
			.register(registry)
			.increment();
		Timer.builder("jobqueue.jobs.execution")
			.description("Time a job's handler ran, outcome written included")
			.tags("queue", job.queue(), "kind", job.kind())
			.register(registry)
			.record(execution);
	}

	@Override
	public void onScheduleFired(String schedule, int jobs) {
		Counter.builder("jobqueue.schedules.fired")
			.description("Jobs this node enqueued for a schedule's fire times, catch-ups of misfires included")
			.tags("schedule", schedule)
			.register(registry)
			.increment(jobs);
	}

	@Override
	public void onScheduleMisfired(String schedule, long missed) {
		Counter.builder("jobqueue.schedules.misfired")
			.description("Fire times of a schedule that passed while no node fired it, found by this node")
			.tags("schedule", schedule)
			.register(registry)
			.increment(missed);
	}

	@Override
	public void onReaped(int count) {
		reaped().increment(count);
	}

	@Override
	public void onMaintaining(boolean maintaining) {
		this.maintaining.set(maintaining ? 1 : 0);
	}

	private Counter reaped() {
		return Counter.builder("jobqueue.jobs.reaped")
			.description("Jobs whose lease expired and which the reaper gave back")
			.register(registry);
	}
}
