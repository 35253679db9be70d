package dev.jobqueue.store.mysql;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.PauseScope;
import dev.jobqueue.store.PauseStore;

/**
 * The pause table's statements on MySQL, as on PostgreSQL ({@code PostgresPauses}): each one statement on the
 * primary key. No notification: other nodes' pollers find a resumed queue at their next poll. The claims read
 * the table in their own statement ({@link MysqlLockingClaim}, {@link MysqlCasClaim}).
 */
final class MysqlPauses implements PauseStore {

	private final JdbcClient jdbc;

	MysqlPauses(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * An unpaused row is paused by the update; a name never paused gets its row from the insert. A paused row
	 * matches neither (INSERT IGNORE meets only the primary key here), so a second pause reports no change and
	 * keeps the time of the first. Each statement decides alone: of two racing pauses one writes.
	 */
	@Override
	public boolean pause(PauseScope scope, String name) {
		int resumedRow = jdbc.sql("""
				UPDATE jobqueue_pause SET paused = TRUE, changed_at = UTC_TIMESTAMP(6)
				WHERE scope = :scope AND name = :name AND NOT paused""")
			.param("scope", scope.name())
			.param("name", name)
			.update();
		return resumedRow == 1 || pauseUnlessRecorded(scope, name);
	}

	@Override
	public boolean resume(PauseScope scope, String name) {
		return jdbc.sql("""
				UPDATE jobqueue_pause SET paused = FALSE, changed_at = UTC_TIMESTAMP(6)
				WHERE scope = :scope AND name = :name AND paused""")
			.param("scope", scope.name())
			.param("name", name)
			.update() == 1;
	}

	/** IGNORE turns the duplicate primary key of a recorded name, the only refusal this insert can meet, into no row. */
	@Override
	public boolean pauseUnlessRecorded(PauseScope scope, String name) {
		return jdbc.sql("""
				INSERT IGNORE INTO jobqueue_pause (scope, name, paused, changed_at)
				VALUES (:scope, :name, TRUE, UTC_TIMESTAMP(6))""")
			.param("scope", scope.name())
			.param("name", name)
			.update() == 1;
	}

	@Override
	public Map<String, Instant> paused(PauseScope scope) {
		Map<String, Instant> paused = new LinkedHashMap<>();
		jdbc.sql("SELECT name, changed_at FROM jobqueue_pause WHERE scope = :scope AND paused ORDER BY name")
			.param("scope", scope.name())
			.query(rs -> {
				paused.put(rs.getString("name"), MysqlRows.instant(rs, "changed_at"));
			});
		return paused;
	}
}
