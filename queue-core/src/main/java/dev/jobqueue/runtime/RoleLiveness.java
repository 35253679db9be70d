package dev.jobqueue.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When each role of a runtime last finished a pass without failing, and whether one met an error that
 * left the JVM unusable. Read by health checks: a role that keeps failing, or hangs, shows here as
 * overdue, while its thread lives on. Written by the roles' threads, read by any.
 */
public final class RoleLiveness {

	/** A watched role whose last successful pass is older than it may be. */
	public record Overdue(String role, Instant lastSuccess, Duration allowed) {
	}

	private static final Logger log = LoggerFactory.getLogger(RoleLiveness.class);

	private final Clock clock;

	private final Map<String, Instant> lastSuccess = new ConcurrentHashMap<>();

	private final Map<String, Duration> allowed = new ConcurrentHashMap<>();

	private final Runnable onFatal;

	private volatile Throwable fatal;

	RoleLiveness(Clock clock, Runnable onFatal) {
		this.clock = clock;
		this.onFatal = onFatal;
	}

	/**
	 * Watches {@code role}, run every {@code interval}, from now on. It is overdue once no pass succeeded
	 * for half a lease, so that health turns DOWN while the leases it keeps are still valid; or for one and
	 * a half intervals, when that is longer, so that a role's own rhythm never reads as a failure.
	 */
	void watch(String role, Duration interval, Duration lease) {
		Duration halfLease = lease.dividedBy(2);
		Duration intervalAndAHalf = interval.plus(interval.dividedBy(2));
		allowed.put(role, intervalAndAHalf.compareTo(halfLease) > 0 ? intervalAndAHalf : halfLease);
		lastSuccess.put(role, clock.instant());
	}

	void succeeded(String role) {
		lastSuccess.put(role, clock.instant());
	}

	/**
	 * Runs one pass of {@code role}; returns whether it succeeded. Any failure is logged and the role lives
	 * on, except a {@link VirtualMachineError}: then nothing the JVM runs can be trusted, so the runtime is
	 * told to stop.
	 */
	boolean pass(String role, Runnable pass, Duration retryIn) {
		try {
			pass.run();
			succeeded(role);
			return true;
		}
		catch (VirtualMachineError ex) {
			fatal(role, ex);
		}
		catch (Throwable ex) {
			log.warn("jobqueue {} failed; it runs again in {}", role, retryIn, ex);
		}
		return false;
	}

	/**
	 * Runs {@code pass} of {@code role} on {@code executor} every {@code interval}, each through {@link #pass}: a
	 * task that throws is never run again by its executor, so whatever a pass throws is logged and the role
	 * runs again at its next interval.
	 */
	void every(ScheduledExecutorService executor, String role, Runnable pass, Duration interval) {
		executor.scheduleWithFixedDelay(() -> pass(role, pass, interval), interval.toMillis(), interval.toMillis(),
				TimeUnit.MILLISECONDS);
	}

	/** A role met an error after which the JVM is not usable: recorded for health, and the runtime stopped. */
	void fatal(String role, VirtualMachineError error) {
		fatal = error;
		log.error("jobqueue {} met {}; the JVM is not usable, so this runtime stops", role, error.toString(), error);
		onFatal.run();
	}

	/** The error that stopped the runtime, if one did. */
	public Optional<Throwable> fatal() {
		return Optional.ofNullable(fatal);
	}

	/** When each watched role last finished a pass without failing. */
	public Map<String, Instant> lastSuccesses() {
		return Map.copyOf(lastSuccess);
	}

	/** The watched roles whose last successful pass is older than they are allowed. */
	public List<Overdue> overdue() {
		Instant now = clock.instant();
		return allowed.entrySet()
			.stream()
			.filter(role -> lastSuccess.get(role.getKey()).plus(role.getValue()).isBefore(now))
			.map(role -> new Overdue(role.getKey(), lastSuccess.get(role.getKey()), role.getValue()))
			.sorted((a, b) -> a.role().compareTo(b.role()))
			.toList();
	}
}
