package dev.jobqueue.store.sqlite.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import javax.sql.DataSource;

import dev.jobqueue.store.ConnectionWatcher;

/**
 * Wakes this process's pollers soon after another process commits jobs to the same SQLite file. SQLite
 * has no notifications, but {@code PRAGMA data_version}, read again and again on one connection of our
 * own, changes exactly when another connection has committed since the last read. Reading it looks at
 * the WAL index in shared memory and touches no table, so it can be read every few milliseconds, which
 * polling the jobs table could not.
 *
 * <p>A change wakes only the queues that now have a due job and are not paused (one read of the ready
 * index each), so that the stream of commits of running jobs does not send idle pollers claiming for
 * nothing; the commit of a resume wakes the resumed queue's pollers. A queue whose pollers are claiming, or whose
 * threads are all busy, is read once they wait ({@code ConnectionWatcher.wakeDue}). Jobs that become
 * due later, with no commit, are found by the pollers' own look-ahead (see {@code QueuePoller}), which
 * spans a poll interval.
 *
 * <p>{@link #finishes(DataSource, Duration)} watches for the awaiters of jobs ({@code JobQueue.await})
 * instead: every change, the first read included, wakes them (with an empty name), and they look their
 * jobs up again.
 */
public final class SqliteChangeWatcher extends ConnectionWatcher {

	/** How often {@code data_version} is read by default. */
	public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(5);

	/**
	 * Whether a queue (both parameters) has a due job and is not paused, a constant so that a test can run it.
	 * One search of the ready index per priority, as the claim's (SqliteClaims.claim says why): on the queue
	 * alone it walked past every future job of a priority ahead of the first due one.
	 */
	public static final String DUE = """
			SELECT 1 FROM jobqueue_job
			WHERE state = 'ready' AND queue = ? AND priority IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
			  AND run_at <= CAST(round(unixepoch('subsec') * 1000) AS INTEGER)
			  AND NOT EXISTS (SELECT 1 FROM jobqueue_pause WHERE scope = 'queue' AND name = ? AND paused = 1)
			LIMIT 1""";

	private final List<String> queues;

	private final Duration interval;

	/** Whether every change wakes (with an empty name) rather than the queues with a due job. */
	private final boolean everyChange;

	/**
	 * @param dataSource the database; the watcher holds one of its connections while it runs
	 * @param queues the queues to wake, those the runtime works
	 */
	public SqliteChangeWatcher(DataSource dataSource, Collection<String> queues, Duration interval) {
		this(dataSource, queues, interval, false);
	}

	private SqliteChangeWatcher(DataSource dataSource, Collection<String> queues, Duration interval,
			boolean everyChange) {
		super(dataSource, everyChange ? "jobqueue-sqlite-finish-watcher" : "jobqueue-sqlite-watcher");
		this.queues = List.copyOf(queues);
		this.interval = interval;
		this.everyChange = everyChange;
	}

	/** Wakes awaiters (with an empty name) at every commit of another connection; see the class comment. */
	public static SqliteChangeWatcher finishes(DataSource dataSource, Duration interval) {
		return new SqliteChangeWatcher(dataSource, List.of(), interval, true);
	}

	@Override
	protected void watch(Connection connection, Consumer<String> wake) throws SQLException {
		try (PreparedStatement version = connection.prepareStatement("PRAGMA data_version");
				PreparedStatement due = connection.prepareStatement(DUE)) {
			// Nothing seen yet: the first read counts as a change, so that jobs committed while the watcher
			// was starting are not left to the poll interval.
			long seen = Long.MIN_VALUE;
			Set<String> changedQueues = new LinkedHashSet<>();
			do {
				long current = read(version);
				if (current != seen && everyChange) {
					seen = current;
					wake.accept("");
				}
				else if (!everyChange) {
					if (current != seen) {
						seen = current;
						changedQueues.addAll(queues);
					}
					wakeDue(changedQueues, due, wake);
				}
			}
			while (sleep(interval));
		}
	}

	/** Each read is a transaction of its own, ended when the result closes, so no snapshot is held open. */
	private static long read(PreparedStatement version) throws SQLException {
		try (ResultSet result = version.executeQuery()) {
			result.next();
			return result.getLong(1);
		}
	}
}
