package dev.jobqueue.contract;

import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.runtime.ScheduledJob;
import dev.jobqueue.support.ScheduleNode;
import dev.jobqueue.support.TestDatabase;
import dev.jobqueue.support.WorkerProcesses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three nodes, one of them a JVM of its own, share a schedule that fires every second, with no leader:
 * each fire time is enqueued once, and none is skipped while they run. Their workers run the jobs at once,
 * which frees each job's unique key, so a fire time enqueued twice would show as two rows.
 */
public abstract class ScheduleClusterContractTest {

	/** Long enough for every node to fire, and for races at many fire times; short enough for the suite. */
	private static final Duration RUN = Duration.ofSeconds(15);

	protected abstract TestDatabase database();

	@BeforeEach
	void emptyTheQueue() {
		database().reset();
	}

	@Test
	void threeNodesEnqueueEachFireTimeOfAScheduleEverySecondExactlyOnce() throws Exception {
		try (WorkerProcesses processes = new WorkerProcesses()) {
			processes.start(ScheduleNode.class, "node-c", database().jdbcUrl(), "node-c");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> Files.readString(processes.log("node-c")).contains("schedule node node-c started"));
			JobRuntime nodeA = ScheduleNode.runtime(database().dataSource());
			JobRuntime nodeB = ScheduleNode.runtime(database().dataSource());
			nodeA.start();
			nodeB.start();
			try {
				Thread.sleep(RUN.toMillis());
			}
			finally {
				nodeA.stop();
				nodeB.stop();
			}
		}

		assertThat(jdbc().sql("SELECT unique_key FROM jobqueue_job GROUP BY unique_key HAVING count(*) > 1")
			.query(String.class)
			.list()).isEmpty();
		List<Instant> fired = fireTimes();
		assertThat(fired).hasSizeGreaterThanOrEqualTo((int) RUN.toSeconds() - 1);
		for (int i = 1; i < fired.size(); i++) {
			assertThat(fired.get(i)).as("the fire time after %s", fired.get(i - 1))
				.isEqualTo(fired.get(i - 1).plusSeconds(1));
		}
	}

	private List<Instant> fireTimes() {
		String prefix = ScheduledJob.KEY_PREFIX + ScheduleNode.SCHEDULE + "@";
		return jdbc().sql("SELECT unique_key FROM jobqueue_job WHERE unique_key LIKE :prefix")
			.param("prefix", prefix + "%")
			.query(String.class)
			.list()
			.stream()
			.map(key -> Instant.parse(key.substring(prefix.length())))
			.sorted()
			.toList();
	}

	private JdbcClient jdbc() {
		return JdbcClient.create(database().dataSource());
	}
}
