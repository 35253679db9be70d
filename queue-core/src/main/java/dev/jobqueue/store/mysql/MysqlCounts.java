package dev.jobqueue.store.mysql;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobState;
import dev.jobqueue.store.JobCounts;

/**
 * The counts by queue and state on MySQL: {@link JobCounts#UNFINISHED} as on the other databases, through the
 * (state, queue, id) index; the finished states in two steps, as MySQL's recursive CTEs may not name themselves
 * in a subquery, which the shared loose scan does. The queues that have finished jobs of a state come from a
 * loose scan of that index (MySQL's "index for group-by", one descent per queue), then each (queue, state) is
 * counted up to {@link JobCounts#FINISHED_CAP} entries of it.
 */
final class MysqlCounts {

	private final JdbcClient jdbc;

	MysqlCounts(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	Map<String, Map<JobState, Long>> unfinished() {
		return JobCounts.query(jdbc, JobCounts.UNFINISHED);
	}

	Map<String, Map<JobState, Long>> everyState() {
		Map<String, Map<JobState, Long>> counts = unfinished();
		List<QueueState> finished = jdbc.sql("""
				SELECT state, queue FROM jobqueue_job WHERE state IN ('succeeded', 'cancelled', 'dead')
				GROUP BY state, queue""")
			.query((rs, row) -> new QueueState(rs.getString("queue"), JobState.valueOf(rs.getString("state"))))
			.list();
		for (QueueState each : finished) {
			long n = jdbc.sql("""
					SELECT count(*) FROM (SELECT 1 FROM jobqueue_job WHERE state = :state AND queue = :queue LIMIT :cap) capped""")
				.param("state", each.state().name())
				.param("queue", each.queue())
				.param("cap", JobCounts.FINISHED_CAP)
				.query(Long.class)
				.single();
			counts.computeIfAbsent(each.queue(), q -> new EnumMap<>(JobState.class)).put(each.state(), n);
		}
		return counts;
	}

	private record QueueState(String queue, JobState state) {
	}
}
