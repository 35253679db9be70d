package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.springframework.validation.Errors;

import dev.jobqueue.HandlerOptions;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.dialects.JobStores;

/**
 * Checks {@link JobQueueProperties} as they are bound, so that a bad value fails the startup with the
 * property's name, its value and what is wrong, before any thread or connection exists. Each message
 * names the property in full, as it is written in {@code application.yml}.
 */
final class JobQueuePropertiesValidator {

	private JobQueuePropertiesValidator() {
	}

	static void validate(JobQueueProperties properties, Errors errors) {
		validateDialect(properties.getDialect(), errors);
		properties.getQueues().forEach((name, queue) -> validateQueue(name, queue, errors));
		positive(errors, "pollInterval", "poll-interval", properties.getPollInterval());
		positive(errors, "leaseDuration", "lease-duration", properties.getLeaseDuration());
		positive(errors, "heartbeatInterval", "heartbeat-interval", properties.getHeartbeatInterval());
		positive(errors, "reaperInterval", "reaper-interval", properties.getReaperInterval());
		positive(errors, "pruneInterval", "prune-interval", properties.getPruneInterval());
		notNegative(errors, "vacuumInterval", "vacuum-interval", properties.getVacuumInterval());
		notNegative(errors, "retention.succeeded", "retention.succeeded", properties.getRetention().getSucceeded());
		notNegative(errors, "retention.dead", "retention.dead", properties.getRetention().getDead());
		notNegative(errors, "shutdownTimeout", "shutdown-timeout", properties.getShutdownTimeout());
		notNegative(errors, "shutdownGrace", "shutdown-grace", properties.getShutdownGrace());
		notNegative(errors, "defaultTimeout", "default-timeout", properties.getDefaultTimeout());
		atLeast(errors, "maxPayloadLength", "max-payload-length", properties.getMaxPayloadLength(), 1);
		atLeast(errors, "maxErrorLength", "max-error-length", properties.getMaxErrorLength(), 256);
		atLeast(errors, "maxResultLength", "max-result-length", properties.getMaxResultLength(), 1);
		heartbeatShorterThanLease(properties, errors);
		for (int i = 0; i < properties.getExternalKinds().size(); i++) {
			String kind = properties.getExternalKinds().get(i);
			if (kind == null || kind.isBlank()) {
				reject(errors, "externalKinds[" + i + "]", "external-kinds[" + i + "]", "must not be blank");
			}
		}
		validateRetry(properties.getRetry(), errors);
		properties.getConcurrencyKeyLimits().forEach((prefix, limit) -> validateKeyLimit(prefix, limit, errors));
		properties.getSchedules().forEach((name, schedule) -> validateSchedule(name, schedule, errors));
		validateConsolePath(properties.getConsole().getPath(), errors);
		if (properties.getConsole().getXminHeldWarning() == null || properties.getConsole().getXminHeldWarning().isNegative()) {
			reject(errors, "console.xminHeldWarning", "console.xmin-held-warning",
					"must be 0 (never) or positive, was " + properties.getConsole().getXminHeldWarning());
		}
		if (properties.getConsole().getDeadRowsWarning() < 0) {
			reject(errors, "console.deadRowsWarning", "console.dead-rows-warning",
					"must be 0 (never) or positive, was " + properties.getConsole().getDeadRowsWarning());
		}
	}

	/** The path becomes a servlet mapping ({@code path/*}): a pattern or a trailing slash would map elsewhere. */
	private static void validateConsolePath(String path, Errors errors) {
		if (path == null || !path.matches("(/[A-Za-z0-9._~-]+)+")) {
			reject(errors, "console.path", "console.path",
					"must start with '/' and name segments of letters, digits, '.', '_', '~' or '-', no trailing '/'; was '"
							+ path + "'");
		}
	}

	/**
	 * The core's rules for a key limit: at least 1, and no prefix of the kinds' own keys ({@code kind:}), which
	 * would match no key an enqueue gives.
	 */
	private static void validateKeyLimit(String prefix, int limit, Errors errors) {
		try {
			RuntimeSettings.builder().concurrencyKeyLimit(prefix, limit);
		}
		catch (IllegalArgumentException ex) {
			errors.reject("invalid", "jobqueue." + ex.getMessage());
		}
	}

	/** What a schedule's properties say on their own; whether its kind and payload fit a handler comes later. */
	private static void validateSchedule(String name, JobQueueProperties.Schedule schedule, Errors errors) {
		try {
			ConfiguredSchedules.schedule(name, schedule);
		}
		catch (IllegalArgumentException ex) {
			errors.reject("invalid", ex.getMessage());
		}
	}

	/**
	 * The dialect picks the store and its schema location: only a name the dialect list knows gets that far,
	 * a supported one or another name of one ({@code mariadb}).
	 */
	private static void validateDialect(String dialect, Errors errors) {
		if (dialect == null) {
			return;
		}
		try {
			JobStores.dialect(dialect);
		}
		catch (IllegalStateException unsupported) {
			List<String> supported = List.of(JobStores.SUPPORTED.split("[,\\s]+"));
			reject(errors, "dialect", "dialect", "must be one of " + supported + ", was '" + dialect + "'");
		}
	}

	/**
	 * A queue's name reaches SQL (as a bound value), logs, metric tags and thread names; an unsafe one is
	 * refused here, before any connection is opened.
	 */
	private static void validateQueue(String name, JobQueueProperties.Queue queue, Errors errors) {
		try {
			HandlerOptions.defaults().queue(name);
		}
		catch (IllegalArgumentException ex) {
			errors.reject("invalid", "jobqueue.queues." + name + ": " + ex.getMessage());
			return;
		}
		if (queue.getConcurrency() < 0) {
			reject(errors, "queues[" + name + "].concurrency", "queues." + name + ".concurrency",
					"must not be negative (0: not worked on this node), was " + queue.getConcurrency());
		}
		if (queue.getPrefetch() < 0) {
			reject(errors, "queues[" + name + "].prefetch", "queues." + name + ".prefetch",
					"must not be negative, was " + queue.getPrefetch());
		}
	}

	private static void validateRetry(JobQueueProperties.Retry retry, Errors errors) {
		atLeast(errors, "retry.maxAttempts", "retry.max-attempts", retry.getMaxAttempts(), 1);
		positive(errors, "retry.initialBackoff", "retry.initial-backoff", retry.getInitialBackoff());
		positive(errors, "retry.maxBackoff", "retry.max-backoff", retry.getMaxBackoff());
		if (retry.getMultiplier() < 1.0) {
			reject(errors, "retry.multiplier", "retry.multiplier", "must be at least 1.0, was " + retry.getMultiplier());
		}
		if (retry.getJitter() < 0.0 || retry.getJitter() >= 1.0) {
			reject(errors, "retry.jitter", "retry.jitter", "must be at least 0 and below 1, was " + retry.getJitter());
		}
		if (isPositive(retry.getInitialBackoff()) && isPositive(retry.getMaxBackoff())
				&& retry.getMaxBackoff().compareTo(retry.getInitialBackoff()) < 0) {
			reject(errors, "retry.maxBackoff", "retry.max-backoff", "(" + retry.getMaxBackoff()
					+ ") must not be shorter than jobqueue.retry.initial-backoff (" + retry.getInitialBackoff() + ")");
		}
	}

	/** A heartbeat must renew the lease before it runs out, or every long job would be reaped and run twice. */
	private static void heartbeatShorterThanLease(JobQueueProperties properties, Errors errors) {
		Duration heartbeat = properties.getHeartbeatInterval();
		Duration lease = properties.getLeaseDuration();
		if (isPositive(heartbeat) && isPositive(lease) && heartbeat.compareTo(lease) >= 0) {
			reject(errors, "heartbeatInterval", "heartbeat-interval",
					"(" + heartbeat + ") must be shorter than jobqueue.lease-duration (" + lease + ")");
		}
	}

	private static void atLeast(Errors errors, String field, String property, int value, int minimum) {
		if (value < minimum) {
			reject(errors, field, property, "must be at least " + minimum + ", was " + value);
		}
	}

	private static void positive(Errors errors, String field, String property, Duration value) {
		if (!isPositive(value)) {
			reject(errors, field, property, "must be a positive duration, was " + value);
		}
	}

	private static void notNegative(Errors errors, String field, String property, Duration value) {
		if (value == null || value.isNegative()) {
			reject(errors, field, property, "must not be negative, was " + value);
		}
	}

	private static boolean isPositive(Duration value) {
		return value != null && !value.isNegative() && !value.isZero();
	}

	private static void reject(Errors errors, String field, String property, String problem) {
		errors.rejectValue(field, "invalid", "jobqueue." + property + " " + problem);
	}
}
