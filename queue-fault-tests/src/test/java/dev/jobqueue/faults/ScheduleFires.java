package dev.jobqueue.faults;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The jobs a schedule enqueued, read from their rows: each names its fire time in its unique key,
 * {@code schedule:<name>@<fire time>}.
 */
final class ScheduleFires {

	private final JdbcClient jdbc;

	private final String kind;

	ScheduleFires(FaultDatabase database, String kind) {
		this.jdbc = database.jdbc();
		this.kind = kind;
	}

	/** Every job of the kind, by fire time. */
	List<Fire> all() {
		return jdbc.sql("SELECT id, unique_key FROM jobqueue_job WHERE kind = :kind")
			.param("kind", kind)
			.query((row, n) -> new Fire(row.getLong("id"), fireTime(row.getString("unique_key"))))
			.list()
			.stream()
			.sorted(Comparator.comparing(Fire::at).thenComparing(Fire::jobId))
			.toList();
	}

	/** Fire times enqueued as more than one job. */
	List<String> enqueuedMoreThanOnce() {
		return jdbc.sql("""
				SELECT unique_key || ' enqueued ' || count(*) || ' times' FROM jobqueue_job
				WHERE kind = :kind GROUP BY unique_key HAVING count(*) > 1""")
			.param("kind", kind)
			.query(String.class)
			.list();
	}

	/** Fire times between the first and the last that no job names, for a schedule that fires {@code every}. */
	List<String> skipped(Duration every) {
		List<Fire> fires = all();
		List<String> skipped = new ArrayList<>();
		for (int i = 1; i < fires.size(); i++) {
			Instant previous = fires.get(i - 1).at();
			if (fires.get(i).at().isAfter(previous.plus(every))) {
				skipped.add("nothing fired between " + previous + " and " + fires.get(i).at());
			}
		}
		return skipped;
	}

	private static Instant fireTime(String uniqueKey) {
		return Instant.parse(uniqueKey.substring(uniqueKey.lastIndexOf('@') + 1));
	}

	/** A job the schedule enqueued, and the fire time it is for. */
	record Fire(long jobId, Instant at) {
	}
}
