package dev.jobqueue.runtime;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the running executions from a thread of its own, apart from the heartbeat, so that it works
 * when the heartbeat itself hangs on a dropped connection.
 *
 * <p>The local fence: the database keeps a lease until (its time when the granting statement ran) +
 * lease, which is never earlier than (our {@link System#nanoTime()} when we sent it) + lease. So once a
 * lease has gone that long less {@link #margin} without a renewal landing, this node may no longer hold
 * it: the execution is told ({@code isLeaseHeld()} turns false) and interrupted, before the reaper of
 * any node can hand the job out again. Its outcome is then left to the lease.
 *
 * <p>The timeout: a handler past its own or the default timeout is interrupted; its attempt fails, and
 * its lease is no longer renewed.
 */
final class Watchdog {

	private static final Logger log = LoggerFactory.getLogger(Watchdog.class);

	private static final Duration LONGEST_PERIOD = Duration.ofMillis(100);

	private final InFlightJobs inFlight;

	Watchdog(InFlightJobs inFlight) {
		this.inFlight = inFlight;
	}

	/** How long after the statement that granted a lease was sent this node believes it holds it. */
	static Duration fence(Duration lease, Duration heartbeatInterval) {
		return lease.minus(margin(lease, heartbeatInterval));
	}

	/**
	 * How long before the lease could run out the fence closes: a tenth of the lease, and never so much
	 * that a heartbeat on time would come too late (half the slack between heartbeat interval and lease).
	 */
	static Duration margin(Duration lease, Duration heartbeatInterval) {
		Duration tenth = lease.dividedBy(10);
		Duration halfSlack = lease.minus(heartbeatInterval).dividedBy(2);
		return tenth.compareTo(halfSlack) < 0 ? tenth : halfSlack;
	}

	/** How often to look: well inside the margin, so that the fence closes before the lease can run out. */
	static Duration period(Duration lease, Duration heartbeatInterval) {
		Duration half = margin(lease, heartbeatInterval).dividedBy(2);
		return half.compareTo(LONGEST_PERIOD) < 0 ? half : LONGEST_PERIOD;
	}

	/** Returns how many executions were fenced or timed out. */
	int runOnce() {
		int acted = 0;
		long now = System.nanoTime();
		for (Execution execution : inFlight.executions()) {
			if (execution.isFenced(now) && execution.leaseLost()) {
				log.warn("Job {} ({}): no heartbeat landed for {} ms; it may no longer hold its lease, so its handler "
						+ "is interrupted before another node can take the job over", execution.jobId(),
						execution.kind(), (now - execution.leaseGrantedAt()) / 1_000_000);
				acted++;
			}
			else if (execution.isPastTimeout(now) && execution.timeOut()) {
				log.warn("Job {} ({}) attempt {} ran past its timeout; its handler is interrupted and the attempt "
						+ "fails", execution.jobId(), execution.kind(), execution.attempt());
				acted++;
			}
		}
		return acted;
	}
}
