package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.jobqueue.store.TableHealth;

/**
 * Holds the {@link QueueHealthSampler}'s last sample against the {@code jobqueue.health.*} thresholds: a queue whose
 * oldest due job waited too long, or a transaction that held the xmin horizon too long, takes the health indicator
 * to OUT_OF_SERVICE, or DOWN past the second threshold. The values go into the health details either way, with a
 * sentence for each threshold passed.
 */
final class QueueHealthThresholds {

	private final QueueHealthSampler sampler;

	private final JobQueueHealthProperties properties;

	QueueHealthThresholds(QueueHealthSampler sampler, JobQueueHealthProperties properties) {
		this.sampler = sampler;
		this.properties = properties;
	}

	/** Adds the sample to {@code builder}'s details; returns the worst status a threshold calls for, or UP. */
	Status check(Health.Builder builder) {
		QueueHealthSampler.Sample sample = sampler.last();
		List<String> passed = new ArrayList<>();
		Status status = Status.UP;
		Map<String, String> ages = new TreeMap<>();
		for (Map.Entry<String, Duration> queue : new TreeMap<>(sample.oldestReady()).entrySet()) {
			ages.put(queue.getKey(), queue.getValue().toString());
			status = worse(status, level(passed, "the oldest due job of queue " + queue.getKey() + " has waited",
					queue.getValue(), "oldest-ready-age", properties.getOldestReadyAgeOutOfService(),
					properties.getOldestReadyAgeDown()));
		}
		builder.withDetail("oldestReadyAge", ages);
		if (sample.table().isPresent()) {
			TableHealth table = sample.table().get();
			builder.withDetail("xminHeld", table.xminHeld().toString()).withDetail("deadRows", table.deadRows());
			status = worse(status, level(passed, "a transaction has held back the xmin horizon for", table.xminHeld(),
					"xmin-held", properties.getXminHeldOutOfService(), properties.getXminHeldDown()));
		}
		if (!passed.isEmpty()) {
			builder.withDetail("thresholds", passed);
		}
		return status;
	}

	/** The status {@code value} calls for; a sentence in {@code passed} when it passed a threshold. */
	private static Status level(List<String> passed, String what, Duration value, String property,
			Duration outOfService, Duration down) {
		if (over(value, down)) {
			passed.add(what + " " + value + ", over jobqueue.health." + property + "-down (" + down + ")");
			return Status.DOWN;
		}
		if (over(value, outOfService)) {
			passed.add(what + " " + value + ", over jobqueue.health." + property + "-out-of-service ("
					+ outOfService + ")");
			return Status.OUT_OF_SERVICE;
		}
		return Status.UP;
	}

	/** A threshold of 0 is off. */
	private static boolean over(Duration value, Duration threshold) {
		return !threshold.isZero() && value.compareTo(threshold) > 0;
	}

	/** DOWN before OUT_OF_SERVICE before UP, as Boot's default status order has it. */
	static Status worse(Status a, Status b) {
		List<Status> order = List.of(Status.DOWN, Status.OUT_OF_SERVICE, Status.UP);
		return order.indexOf(a) <= order.indexOf(b) ? a : b;
	}
}
