package dev.jobqueue.store.mysql.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

import javax.sql.DataSource;

import dev.jobqueue.store.ConnectionWatcher;

/**
 * Wakes this process's pollers, or its awaiters, soon after another process enqueues or finishes jobs. MySQL has
 * no LISTEN/NOTIFY; what it has is an index whose last entry answers in one descent: {@code max(id)} from the
 * primary key and {@code max(finished_at)} from the finished index, which the optimizer reads without touching a
 * row ("Select tables optimized away"). This watcher reads the pair on a connection of its own every
 * {@link #DEFAULT_INTERVAL}: a new id is an enqueue, a new finish time a job done, and either may have freed a
 * key's slot for a promotion. A change wakes only the queues that now have a due job and are not paused (one read
 * of the claim index each), so that idle pollers do not claim for nothing; a queue whose pollers are claiming, or
 * whose threads are all busy, is read once they wait ({@code ConnectionWatcher.wakeDue}), so that the read does
 * not run on the index head the claims are busy with.
 *
 * <p>What it does not see, a resumed queue, a retry coming due, is left to the pollers' own poll and look-ahead,
 * as on PostgreSQL for the jobs that become due with no commit. {@link #finishes} watches for the awaiters of
 * jobs ({@code JobQueue.await}) instead: every change of the finish time, the first read included, wakes them with
 * an empty name.
 */
public final class MysqlChangeWatcher extends ConnectionWatcher {

	/** How often the pair is read: twenty one-descent reads a second, for a wake within 50 ms of the commit. */
	public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(50);

	/** The newest id and finish time; the optimizer answers both from the ends of their indexes. */
	public static final String NEWEST = "SELECT max(id), max(finished_at) FROM jobqueue_job";

	/** Whether a queue (both parameters) has a due job and is not paused: ten descents of the claim index. */
	public static final String DUE = """
			SELECT 1 FROM jobqueue_job FORCE INDEX (jobqueue_job_ready_idx)
			WHERE queue = ? AND state = 'ready' AND priority IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
			  AND run_at <= UTC_TIMESTAMP(6)
			  AND NOT EXISTS (SELECT 1 FROM jobqueue_pause WHERE scope = 'queue' AND name = ? AND paused)
			LIMIT 1""";

	private final List<String> queues;

	private final Duration interval;

	/** Whether a change of the finish time wakes (with an empty name) rather than the queues with a due job. */
	private final boolean finishes;

	public MysqlChangeWatcher(DataSource dataSource, Collection<String> queues, Duration interval) {
		this(dataSource, queues, interval, false);
	}

	private MysqlChangeWatcher(DataSource dataSource, Collection<String> queues, Duration interval, boolean finishes) {
		super(dataSource, finishes ? "jobqueue-mysql-finish-watcher" : "jobqueue-mysql-watcher");
		this.queues = List.copyOf(queues);
		this.interval = interval;
		this.finishes = finishes;
	}

	/** Wakes awaiters (with an empty name) whenever a job finished; see the class comment. */
	public static MysqlChangeWatcher finishes(DataSource dataSource, Duration interval) {
		return new MysqlChangeWatcher(dataSource, List.of(), interval, true);
	}

	@Override
	protected void watch(Connection connection, Consumer<String> wake) throws SQLException {
		// Each read in a transaction of its own, so that it sees every commit before it.
		connection.setAutoCommit(true);
		try (PreparedStatement newest = connection.prepareStatement(NEWEST);
				PreparedStatement due = connection.prepareStatement(DUE)) {
			// Nothing seen yet: the first read counts as a change, so that jobs committed while the watcher was
			// starting are not left to the poll interval.
			List<Object> seen = null;
			Set<String> changedQueues = new LinkedHashSet<>();
			do {
				List<Object> current = read(newest);
				boolean changed = !current.equals(seen);
				boolean finished = seen == null || !Objects.equals(current.get(1), seen.get(1));
				seen = current;
				if (finishes && finished) {
					wake.accept("");
				}
				else if (!finishes) {
					if (changed) {
						changedQueues.addAll(queues);
					}
					wakeDue(changedQueues, due, wake);
				}
			}
			while (sleep(interval));
		}
	}

	private static List<Object> read(PreparedStatement newest) throws SQLException {
		try (ResultSet result = newest.executeQuery()) {
			result.next();
			return Arrays.asList(result.getObject(1), result.getObject(2));
		}
	}
}
