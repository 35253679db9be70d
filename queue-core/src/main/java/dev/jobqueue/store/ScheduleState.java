package dev.jobqueue.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A schedule's row, as every node shares it.
 *
 * @param timing the timing as the node that last defined the schedule declared it (see
 * {@code Schedule.timing()})
 * @param nextFireAt the next fire time not yet enqueued, or {@code null} while the schedule is disabled, and after a
 * resume until a node that knows the schedule writes its next fire time
 * @param lastFireAt the latest fire time enqueued, or {@code null} before the first
 * @param version grows by one at every change: the value a compare-and-set names
 * @param pausedAt when the schedule was paused, on the database's clock, or {@code null} while it is not
 * @param definition the whole schedule as JSON for one added at runtime, or {@code null} for one declared in code
 */
public record ScheduleState(String name, String timing, Instant nextFireAt, Instant lastFireAt, long version,
		Instant pausedAt, String definition) {

	/** Every row, by name: the columns in the order of the record's components, the same on every database. */
	public static final String SELECT = """
			SELECT name, timing, next_fire_at, last_fire_at, version, paused_at, definition
			FROM jobqueue_schedule ORDER BY name""";

	/** How a dialect reads a time column. */
	@FunctionalInterface
	public interface InstantColumn {

		Instant read(ResultSet rs, String column) throws SQLException;
	}

	/** Every row, by name, read with {@link #SELECT} and the dialect's {@code instants}. */
	public static List<ScheduleState> all(JdbcClient jdbc, InstantColumn instants) {
		return jdbc.sql(SELECT)
			.query((rs, n) -> new ScheduleState(rs.getString("name"), rs.getString("timing"),
					instants.read(rs, "next_fire_at"), instants.read(rs, "last_fire_at"), rs.getLong("version"),
					instants.read(rs, "paused_at"), rs.getString("definition")))
			.list();
	}

	/** Whether an operator paused it: no node fires it then. */
	public boolean paused() {
		return pausedAt != null;
	}

	/** Whether it was added at runtime, its whole definition kept in the row. */
	public boolean addedAtRuntime() {
		return definition != null;
	}
}
