package dev.jobqueue;

import java.time.Duration;
import java.util.Locale;

/**
 * What the queue reports as it works, for metrics. Every method has a no-op default; implementations
 * must be fast and must not throw.
 */
public interface JobListener {

	JobListener NONE = new JobListener() {
	};

	default void onEnqueued(String queue, String kind) {
	}

	/** A claimed job is about to run; {@code wait} is how long after it was due. */
	default void onStarted(JobContext job, Duration wait) {
	}

	default void onFinished(JobContext job, Outcome outcome, Duration execution) {
	}

	/** The reaper put back jobs whose worker stopped heartbeating. */
	default void onReaped(int count) {
	}

	/**
	 * This node became ({@code true}) or stopped being ({@code false}) the one node that runs maintenance: the
	 * reaper, the pruner, the vacuum and the sweep of concurrency keys.
	 */
	default void onMaintaining(boolean maintaining) {
	}

	/** A schedule enqueued {@code jobs} job(s) on this node, one per fire time (catch-ups included). */
	default void onScheduleFired(String schedule, int jobs) {
	}

	/**
	 * This node found {@code missed} fire times of a schedule that passed while no node fired it (more than
	 * its misfire threshold ago); its misfire policy decided which of them, if any, were enqueued.
	 */
	default void onScheduleMisfired(String schedule, long missed) {
	}

	/** How an execution ended. */
	enum Outcome {
		SUCCEEDED, RETRIED, DEAD, LEASE_LOST,

		/** Given back, its attempt returned, by a node that stopped while the handler ran. */
		RELEASED,

		/** The handler asked to run again later ({@link SnoozeException}); the attempt did not count. */
		SNOOZED,

		/** The job was cancelled while its handler ran; what the handler did after is not written. */
		CANCELLED;

		/** The tag value used in metrics. */
		public String tag() {
			return name().toLowerCase(Locale.ROOT);
		}
	}
}
