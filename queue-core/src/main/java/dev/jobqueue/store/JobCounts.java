package dev.jobqueue.store;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobState;

/** The counting statements, the same on both databases, and the map they fill. */
public final class JobCounts {

	/** Every state: a scan of the whole table, finished rows included. */
	public static final String ALL = "SELECT queue, state, count(*) FROM jobqueue_job GROUP BY queue, state";

	/**
	 * Blocked, ready and running only, each part answered by the partial index that holds its rows: the
	 * blocked index, the ready index, and the reaper's index of the rows with a lease expiry, which are the
	 * running ones (the condition on the expiry is what lets the planner use that index).
	 */
	public static final String UNFINISHED = """
			SELECT queue, 'blocked', count(*) FROM jobqueue_job WHERE state = 'blocked' GROUP BY queue
			UNION ALL
			SELECT queue, 'ready', count(*) FROM jobqueue_job WHERE state = 'ready' GROUP BY queue
			UNION ALL
			SELECT queue, 'running', count(*) FROM jobqueue_job
			WHERE lease_expires_at IS NOT NULL AND state = 'running' GROUP BY queue""";

	private JobCounts() {
	}

	/** Runs one of the statements above: counts by queue, then by state. */
	public static Map<String, Map<JobState, Long>> query(JdbcClient jdbc, String sql) {
		Map<String, Map<JobState, Long>> counts = new TreeMap<>();
		jdbc.sql(sql).query(rs -> {
			counts.computeIfAbsent(rs.getString(1), q -> new EnumMap<>(JobState.class))
				.put(JobState.valueOf(rs.getString(2)), rs.getLong(3));
		});
		return counts;
	}
}
