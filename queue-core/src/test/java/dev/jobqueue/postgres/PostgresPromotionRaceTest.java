package dev.jobqueue.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterAll;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.contract.PromotionRaceContractTest;
import dev.jobqueue.support.PostgresTestDatabase;
import dev.jobqueue.support.TestDatabase;

/**
 * The pause is a trigger that waits for a session advisory lock a connection of the test holds, in a class (the
 * first number) of its own: the promotion's locks are in class {@code hashtext('jobqueue_concurrency_key')}.
 */
class PostgresPromotionRaceTest extends PromotionRaceContractTest {

	private static final String LOCK = "7301, 43";

	private static TestDatabase database;

	@Override
	protected TestDatabase database() {
		if (database == null) {
			database = new PostgresTestDatabase();
		}
		return database;
	}

	@Override
	protected Pause pauseTheUpdateOf(long id) {
		JdbcClient jdbc = JdbcClient.create(database().dataSource());
		try {
			Connection holder = database().dataSource().getConnection();
			try (Statement statement = holder.createStatement()) {
				statement.execute("SELECT pg_advisory_lock(" + LOCK + ")");
			}
			jdbc.sql("""
					CREATE OR REPLACE FUNCTION jobqueue_test_pause() RETURNS trigger LANGUAGE plpgsql AS $$
					BEGIN
					    PERFORM pg_advisory_lock(%s);
					    PERFORM pg_advisory_unlock(%s);
					    RETURN NEW;
					END $$""".formatted(LOCK, LOCK)).update();
			jdbc.sql("DROP TRIGGER IF EXISTS jobqueue_test_pause ON jobqueue_job").update();
			jdbc.sql("""
					CREATE TRIGGER jobqueue_test_pause BEFORE UPDATE ON jobqueue_job
					FOR EACH ROW WHEN (NEW.id = %d) EXECUTE FUNCTION jobqueue_test_pause()""".formatted(id)).update();
			return new Pause() {

				@Override
				public boolean reached() {
					return jdbc.sql("""
							SELECT count(*) FROM pg_locks
							WHERE locktype = 'advisory' AND NOT granted AND classid = 7301 AND objid = 43 AND objsubid = 2
							  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())""")
						.query(Long.class)
						.single() > 0;
				}

				/** The lock given back before the connection goes back to the pool, where its session lives on. */
				@Override
				public void release() {
					try {
						if (holder.isClosed()) {
							return;
						}
						try (holder; Statement statement = holder.createStatement()) {
							statement.execute("SELECT pg_advisory_unlock(" + LOCK + ")");
						}
					}
					catch (SQLException ex) {
						throw new IllegalStateException(ex);
					}
				}

				@Override
				public void close() {
					release();
					jdbc.sql("DROP TRIGGER IF EXISTS jobqueue_test_pause ON jobqueue_job").update();
				}
			};
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@AfterAll
	static void closeDatabase() {
		if (database != null) {
			database.close();
			database = null;
		}
	}
}
