package dev.jobqueue.store.postgres;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.PauseScope;
import dev.jobqueue.store.PauseStore;

/**
 * The pause table's statements on PostgreSQL. Each is one statement on the primary key, so concurrent
 * pauses and resumes of one name serialize on its row and each answers whether it changed the state. The
 * claim reads the table in the same statement that picks jobs ({@link PostgresClaims}).
 */
final class PostgresPauses implements PauseStore {

	private final JdbcClient jdbc;

	private final boolean notify;

	PostgresPauses(JdbcClient jdbc, boolean notify) {
		this.jdbc = jdbc;
		this.notify = notify;
	}

	@Override
	public boolean pause(PauseScope scope, String name) {
		// The WHERE of DO UPDATE leaves a paused row as it is, so a second pause reports no change and keeps
		// the time of the first.
		return jdbc.sql("""
				INSERT INTO jobqueue_pause (scope, name, paused, changed_at)
				VALUES (:scope, :name, true, statement_timestamp())
				ON CONFLICT (scope, name) DO UPDATE SET paused = true, changed_at = statement_timestamp()
				WHERE NOT jobqueue_pause.paused""")
			.param("scope", scope.name())
			.param("name", name)
			.update() == 1;
	}

	/**
	 * A resumed queue notifies its listeners as an enqueue does, in the same statement, so the pollers of
	 * other nodes wake when the resume commits rather than at their next poll.
	 */
	@Override
	public boolean resume(PauseScope scope, String name) {
		return !jdbc.sql("""
				UPDATE jobqueue_pause SET paused = false, changed_at = statement_timestamp()
				WHERE scope = :scope AND name = :name AND paused
				RETURNING CASE WHEN :notify AND scope = 'queue' THEN pg_notify('jobqueue_ready', name) IS NULL END""")
			.param("scope", scope.name())
			.param("name", name)
			.param("notify", notify)
			.query((rs, n) -> true)
			.list()
			.isEmpty();
	}

	@Override
	public boolean pauseUnlessRecorded(PauseScope scope, String name) {
		return jdbc.sql("""
				INSERT INTO jobqueue_pause (scope, name, paused, changed_at)
				VALUES (:scope, :name, true, statement_timestamp())
				ON CONFLICT (scope, name) DO NOTHING""")
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
				paused.put(rs.getString("name"), PostgresRows.instant(rs, "changed_at"));
			});
		return paused;
	}
}
