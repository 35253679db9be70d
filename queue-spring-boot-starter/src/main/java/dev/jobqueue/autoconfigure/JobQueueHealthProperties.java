package dev.jobqueue.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * The queue-health thresholds of the {@code jobqueue} health indicator, under {@code jobqueue.health.*}, and how
 * often the values they are compared with are read. Every threshold is off (0) by default: an indicator that turns
 * OUT_OF_SERVICE or DOWN answers 503 on the health endpoint, and whether a late queue or a long transaction should
 * take nodes out of a load balancer is the application's call. Values are checked when bound: an invalid one fails
 * the startup, naming the property.
 */
@ConfigurationProperties("jobqueue.health")
public class JobQueueHealthProperties implements Validator {

	/**
	 * How often each node reads the queue-health values: the wait of every queue's oldest due job and, on
	 * PostgreSQL, the job table's dead rows, its last vacuum and the oldest transaction holding back the xmin
	 * horizon. The meters and the thresholds below read the last values, so however often they are scraped the
	 * database answers once per interval.
	 */
	private Duration sampleInterval = Duration.ofSeconds(10);

	/**
	 * Health turns OUT_OF_SERVICE when a queue's oldest due ready job has waited longer than this since it was
	 * due (paused queues included); 0: never.
	 */
	private Duration oldestReadyAgeOutOfService = Duration.ZERO;

	/**
	 * Health turns DOWN when a queue's oldest due ready job has waited longer than this since it was due (paused
	 * queues included); 0: never. Longer than oldest-ready-age-out-of-service when both are set.
	 */
	private Duration oldestReadyAgeDown = Duration.ZERO;

	/**
	 * PostgreSQL: health turns OUT_OF_SERVICE when a transaction of the queue's database (or a prepared one) has
	 * held back the xmin horizon longer than this, keeping every dead job row from being vacuumed; 0: never.
	 */
	private Duration xminHeldOutOfService = Duration.ZERO;

	/**
	 * PostgreSQL: health turns DOWN when a transaction of the queue's database (or a prepared one) has held back
	 * the xmin horizon longer than this; 0: never. Longer than xmin-held-out-of-service when both are set.
	 */
	private Duration xminHeldDown = Duration.ZERO;

	public Duration getSampleInterval() {
		return sampleInterval;
	}

	public void setSampleInterval(Duration sampleInterval) {
		this.sampleInterval = sampleInterval;
	}

	public Duration getOldestReadyAgeOutOfService() {
		return oldestReadyAgeOutOfService;
	}

	public void setOldestReadyAgeOutOfService(Duration oldestReadyAgeOutOfService) {
		this.oldestReadyAgeOutOfService = oldestReadyAgeOutOfService;
	}

	public Duration getOldestReadyAgeDown() {
		return oldestReadyAgeDown;
	}

	public void setOldestReadyAgeDown(Duration oldestReadyAgeDown) {
		this.oldestReadyAgeDown = oldestReadyAgeDown;
	}

	public Duration getXminHeldOutOfService() {
		return xminHeldOutOfService;
	}

	public void setXminHeldOutOfService(Duration xminHeldOutOfService) {
		this.xminHeldOutOfService = xminHeldOutOfService;
	}

	public Duration getXminHeldDown() {
		return xminHeldDown;
	}

	public void setXminHeldDown(Duration xminHeldDown) {
		this.xminHeldDown = xminHeldDown;
	}

	@Override
	public boolean supports(Class<?> type) {
		return JobQueueHealthProperties.class.isAssignableFrom(type);
	}

	@Override
	public void validate(Object target, Errors errors) {
		JobQueueHealthProperties health = (JobQueueHealthProperties) target;
		if (health.sampleInterval == null || health.sampleInterval.isNegative() || health.sampleInterval.isZero()) {
			reject(errors, "sampleInterval", "sample-interval", "must be a positive duration, was "
					+ health.sampleInterval);
		}
		thresholds(errors, "oldestReadyAge", "oldest-ready-age", health.oldestReadyAgeOutOfService,
				health.oldestReadyAgeDown);
		thresholds(errors, "xminHeld", "xmin-held", health.xminHeldOutOfService, health.xminHeldDown);
	}

	/** Each level off (0) or positive; DOWN, the worse status, past OUT_OF_SERVICE when both are on. */
	private static void thresholds(Errors errors, String field, String property, Duration outOfService,
			Duration down) {
		boolean valid = notNegative(errors, field + "OutOfService", property + "-out-of-service", outOfService)
				& notNegative(errors, field + "Down", property + "-down", down);
		if (valid && !outOfService.isZero() && !down.isZero() && down.compareTo(outOfService) <= 0) {
			reject(errors, field + "Down", property + "-down", "(" + down + ") must be longer than jobqueue.health."
					+ property + "-out-of-service (" + outOfService + ")");
		}
	}

	private static boolean notNegative(Errors errors, String field, String property, Duration value) {
		if (value == null || value.isNegative()) {
			reject(errors, field, property, "must not be negative (0: never), was " + value);
			return false;
		}
		return true;
	}

	private static void reject(Errors errors, String field, String property, String problem) {
		errors.rejectValue(field, "invalid", "jobqueue.health." + property + " " + problem);
	}
}
