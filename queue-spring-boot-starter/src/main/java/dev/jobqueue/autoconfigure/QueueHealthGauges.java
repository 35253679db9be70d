package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

import dev.jobqueue.store.TableHealth;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The queue-health gauges, each reading the {@link QueueHealthSampler}'s last sample, never the database:
 * {@code jobqueue.queue.oldest.ready.age} by queue (the SLO signal: how long the oldest due job has waited) and,
 * on PostgreSQL, the job table's dead rows, the time since its last vacuum and the oldest transaction holding back
 * its xmin horizon, in time and in transactions. Tagged by queue at most, so the series stay as few as the queues.
 */
final class QueueHealthGauges implements MeterBinder {

	private final QueueHealthSampler sampler;

	private final boolean tableHealth;

	/** @param tableHealth whether the database has table health to show (PostgreSQL) */
	QueueHealthGauges(QueueHealthSampler sampler, boolean tableHealth) {
		this.sampler = sampler;
		this.tableHealth = tableHealth;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		sampler.eachQueue(queue -> Gauge
			.builder("jobqueue.queue.oldest.ready.age", sampler, s -> seconds(s.last().oldestReady(queue)))
			.description("How long the queue's oldest due ready job has waited since it was due (0: none waits), "
					+ "paused queues included; read every jobqueue.health.sample-interval")
			.baseUnit("seconds")
			.tags("queue", queue)
			.strongReference(true)
			.register(registry));
		if (tableHealth) {
			table(registry, "jobqueue.postgres.dead.rows", "rows", health -> (double) health.deadRows(),
					"Dead row versions of the job table, as PostgreSQL's statistics count them");
			table(registry, "jobqueue.postgres.vacuum.age", "seconds",
					health -> health.sinceVacuum().map(QueueHealthGauges::seconds).orElse(Double.NaN),
					"Time since the job table's last VACUUM or autovacuum finished (NaN: none recorded)");
			table(registry, "jobqueue.postgres.xmin.held", "seconds", health -> seconds(health.xminHeld()),
					"How long the oldest transaction of the database (or prepared one) holding back the xmin "
							+ "horizon has been open: no dead row that died since can be vacuumed (0: none)");
			table(registry, "jobqueue.postgres.xmin.age", "transactions", health -> (double) health.xminAge(),
					"Age in transactions of the oldest xmin holding back the horizon: open and prepared "
							+ "transactions and replication slots (0: none)");
		}
	}

	private void table(MeterRegistry registry, String name, String unit, Function<TableHealth, Double> value,
			String description) {
		Gauge.builder(name, sampler, s -> valueOf(s.last().table(), value))
			.description(description + "; read every jobqueue.health.sample-interval")
			.baseUnit(unit)
			.strongReference(true)
			.register(registry);
	}

	/** NaN until the first read: no value is better than a made-up zero. */
	private static double valueOf(Optional<TableHealth> health, Function<TableHealth, Double> value) {
		return health.map(value).orElse(Double.NaN);
	}

	private static double seconds(Duration duration) {
		return duration.toNanos() / 1e9;
	}
}
