package dev.jobqueue.store;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.jobqueue.JobState;

/**
 * The reads behind the counts, the queue-health meters and their thresholds: each cheap enough to ask every few
 * seconds, however many finished rows the table keeps.
 */
public interface TelemetryStore {

	/**
	 * Job counts by queue and state, cheap however many finished rows the table keeps: blocked, ready and running
	 * exactly, as {@link #countUnfinishedByQueue}; succeeded, cancelled and dead each up to
	 * {@link JobCounts#FINISHED_CAP}, read from the index of finished rows, so a count at the cap means at least
	 * that many. States with no job are left out.
	 */
	Map<String, Map<JobState, Long>> countByQueueAndState();

	/**
	 * Counts of blocked, ready and running jobs by queue, read from the partial indexes that hold just those
	 * rows: the cost follows the backlog and the jobs in flight, not the finished rows the table keeps.
	 */
	Map<String, Map<JobState, Long>> countUnfinishedByQueue();

	/**
	 * How long the oldest due ready job of {@code queue} has waited since it was due, by the database's clock;
	 * zero when none is due. Paused queues and kinds count: their wait is what this shows. One probe of the
	 * ready index per priority, never the table: cheap enough to ask for every queue every few seconds.
	 */
	Duration oldestReadyAge(String queue);

	/**
	 * The id of the job {@link #oldestReadyAge} measures: the ready job of {@code queue} due first, for the console to
	 * link its wait to the job and its explanation; empty when the queue has no ready job. The same probes.
	 */
	Optional<Long> oldestReadyJob(String queue);

	/**
	 * The jobs that finished in each of the last {@code minutes} minutes (the current one included), per queue, by
	 * queue then minute; minutes in which a queue finished nothing are left out. Reads the finished index newest
	 * first, at most {@link FinishedMinute#CAP} rows of each queue and finished state, never the whole table.
	 * @throws IllegalArgumentException for {@code minutes} outside 1 - {@link FinishedMinute#MAX_MINUTES}
	 */
	List<FinishedMinute> finishedPerMinute(int minutes);

	/**
	 * The job table's dead rows, its last vacuum and what holds back the cleanup of its dead rows, from the
	 * database's statistics; empty where the database keeps no dead row versions (SQLite).
	 */
	Optional<TableHealth> tableHealth();
}
