package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.jobqueue.RetryPolicy;

/**
 * How a {@link JobRuntime} works. The Spring Boot starter builds this from {@code jobqueue.*}
 * properties, whose defaults are the ones here.
 *
 * @param queues the queues this node works, with each one's concurrency (threads)
 * @param pollInterval how long a poller sleeps when nothing wakes it
 * @param lease how long a claim is valid without a heartbeat
 * @param heartbeatInterval how often leases of running jobs are extended; shorter than {@code lease}
 * @param reaperInterval how often expired leases are looked for
 * @param pruneInterval how often finished jobs past their retention are deleted
 * @param vacuumInterval how often the job table's dead rows are counted, and the table vacuumed when they are
 * many (PostgreSQL); zero turns this off
 * @param finishedRetention how long succeeded and cancelled jobs are kept
 * @param deadRetention how long dead jobs are kept
 * @param shutdownTimeout how long a stop waits for running jobs before interrupting them
 * @param shutdownGrace how long a stop waits, after interrupting them, for handlers to exit; the leases of
 * those that do not are kept, heartbeated, until they exit or the process ends
 * @param defaultTimeout how long a handler that declares no timeout of its own may run before it is
 * interrupted and its attempt failed; zero means no limit
 * @param retryPolicy the default retry policy of handlers that declare none
 * @param maxErrorLength the longest error text (message and stack trace) stored with a job
 * @param maxResultLength the longest result stored with a job, in characters of JSON; a longer one fails
 * its job, dead
 */
public record RuntimeSettings(Map<String, Integer> queues, Duration pollInterval, Duration lease,
		Duration heartbeatInterval, Duration reaperInterval, Duration pruneInterval, Duration vacuumInterval,
		Duration finishedRetention, Duration deadRetention, Duration shutdownTimeout, Duration shutdownGrace,
		Duration defaultTimeout, RetryPolicy retryPolicy, int maxErrorLength, int maxResultLength) {

	public static final String DEFAULT_QUEUE = "default";

	public RuntimeSettings {
		queues = Map.copyOf(queues);
		queues.keySet().forEach(name -> QueueNames.requireValid(name, "queue name"));
		queues.forEach((name, concurrency) -> require(concurrency >= 1,
				"queues." + name + ".concurrency must be at least 1, was " + concurrency));
		require(!heartbeatInterval.isNegative() && heartbeatInterval.compareTo(lease) < 0,
				"heartbeat-interval (" + heartbeatInterval + ") must be shorter than lease (" + lease + ")");
		require(!vacuumInterval.isNegative(), "vacuum-interval must not be negative, was " + vacuumInterval);
		require(!shutdownTimeout.isNegative(), "shutdown-timeout must not be negative, was " + shutdownTimeout);
		require(!shutdownGrace.isNegative(), "shutdown-grace must not be negative, was " + shutdownGrace);
		require(!defaultTimeout.isNegative(), "default-timeout must not be negative, was " + defaultTimeout);
		require(maxErrorLength >= 256, "max-error-length must be at least 256, was " + maxErrorLength);
		require(maxResultLength >= 1, "max-result-length must be at least 1, was " + maxResultLength);
	}

	/**
	 * One queue, {@code default}, with 8 threads; a 30 s lease heartbeated every 10 s. A stop waits 15 s
	 * for running jobs and 5 s more after interrupting them: 20 s, inside Kubernetes' default termination
	 * grace period of 30 s with room for the web server's own graceful stop and the context's close.
	 * No execution timeout: the queue cannot know how long a job should take. The job table is
	 * looked at for vacuuming every 2 s: a busy queue leaves dead entries at the front of the claim's index
	 * at its own rate, and every claim steps over those that are there, so the interval bounds how many
	 * seconds of claimed jobs a claim finds in its way. In a 1,000,000-job soak at about 10,000 jobs/s the
	 * last 100,000 ran at 72 – 74 % of the first with 10 s and at 88 – 101 % with 2 s, and a VACUUM of
	 * that table took 0.14 s (docs/performance.md). Where nothing needs vacuuming the look costs a read
	 * of the table's statistics.
	 */
	public static RuntimeSettings defaults() {
		Map<String, Integer> queues = new LinkedHashMap<>();
		queues.put(DEFAULT_QUEUE, 8);
		return new RuntimeSettings(queues, Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(10),
				Duration.ofSeconds(5), Duration.ofMinutes(1), Duration.ofSeconds(2), Duration.ofDays(1),
				Duration.ofDays(14), Duration.ofSeconds(15), Duration.ofSeconds(5), Duration.ZERO, RetryPolicy.DEFAULT,
				16 * 1024, JdbcJobQueue.DEFAULT_MAX_PAYLOAD_LENGTH);
	}

	public RuntimeSettings withQueues(Map<String, Integer> queues) {
		return new RuntimeSettings(queues, pollInterval, lease, heartbeatInterval, reaperInterval, pruneInterval,
				vacuumInterval, finishedRetention, deadRetention, shutdownTimeout, shutdownGrace, defaultTimeout,
				retryPolicy, maxErrorLength, maxResultLength);
	}

	public RuntimeSettings withPollInterval(Duration pollInterval) {
		return new RuntimeSettings(queues, pollInterval, lease, heartbeatInterval, reaperInterval, pruneInterval,
				vacuumInterval, finishedRetention, deadRetention, shutdownTimeout, shutdownGrace, defaultTimeout,
				retryPolicy, maxErrorLength, maxResultLength);
	}

	public RuntimeSettings withLease(Duration lease, Duration heartbeatInterval) {
		return new RuntimeSettings(queues, pollInterval, lease, heartbeatInterval, reaperInterval, pruneInterval,
				vacuumInterval, finishedRetention, deadRetention, shutdownTimeout, shutdownGrace, defaultTimeout,
				retryPolicy, maxErrorLength, maxResultLength);
	}

	public RuntimeSettings withReaperInterval(Duration reaperInterval) {
		return new RuntimeSettings(queues, pollInterval, lease, heartbeatInterval, reaperInterval, pruneInterval,
				vacuumInterval, finishedRetention, deadRetention, shutdownTimeout, shutdownGrace, defaultTimeout,
				retryPolicy, maxErrorLength, maxResultLength);
	}

	public RuntimeSettings withPruneInterval(Duration pruneInterval) {
		return new RuntimeSettings(queues, pollInterval, lease, heartbeatInterval, reaperInterval, pruneInterval,
				vacuumInterval, finishedRetention, deadRetention, shutdownTimeout, shutdownGrace, defaultTimeout,
				retryPolicy, maxErrorLength, maxResultLength);
	}

	public RuntimeSettings withVacuumInterval(Duration vacuumInterval) {
		return new RuntimeSettings(queues, pollInterval, lease, heartbeatInterval, reaperInterval, pruneInterval,
				vacuumInterval, finishedRetention, deadRetention, shutdownTimeout, shutdownGrace, defaultTimeout,
				retryPolicy, maxErrorLength, maxResultLength);
	}

	public RuntimeSettings withShutdownTimeout(Duration shutdownTimeout) {
		return new RuntimeSettings(queues, pollInterval, lease, heartbeatInterval, reaperInterval, pruneInterval,
				vacuumInterval, finishedRetention, deadRetention, shutdownTimeout, shutdownGrace, defaultTimeout,
				retryPolicy, maxErrorLength, maxResultLength);
	}

	public RuntimeSettings withShutdownGrace(Duration shutdownGrace) {
		return new RuntimeSettings(queues, pollInterval, lease, heartbeatInterval, reaperInterval, pruneInterval,
				vacuumInterval, finishedRetention, deadRetention, shutdownTimeout, shutdownGrace, defaultTimeout,
				retryPolicy, maxErrorLength, maxResultLength);
	}

	public RuntimeSettings withDefaultTimeout(Duration defaultTimeout) {
		return new RuntimeSettings(queues, pollInterval, lease, heartbeatInterval, reaperInterval, pruneInterval,
				vacuumInterval, finishedRetention, deadRetention, shutdownTimeout, shutdownGrace, defaultTimeout,
				retryPolicy, maxErrorLength, maxResultLength);
	}

	public RuntimeSettings withRetryPolicy(RetryPolicy retryPolicy) {
		return new RuntimeSettings(queues, pollInterval, lease, heartbeatInterval, reaperInterval, pruneInterval,
				vacuumInterval, finishedRetention, deadRetention, shutdownTimeout, shutdownGrace, defaultTimeout,
				retryPolicy, maxErrorLength, maxResultLength);
	}

	public RuntimeSettings withMaxResultLength(int maxResultLength) {
		return new RuntimeSettings(queues, pollInterval, lease, heartbeatInterval, reaperInterval, pruneInterval,
				vacuumInterval, finishedRetention, deadRetention, shutdownTimeout, shutdownGrace, defaultTimeout,
				retryPolicy, maxErrorLength, maxResultLength);
	}

	private static void require(boolean condition, String message) {
		if (!condition) {
			throw new IllegalArgumentException(message);
		}
	}
}
