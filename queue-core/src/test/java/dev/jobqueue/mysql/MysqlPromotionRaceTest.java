package dev.jobqueue.mysql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterAll;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.contract.PromotionRaceContractTest;
import dev.jobqueue.support.MysqlTestDatabase;
import dev.jobqueue.support.TestDatabase;

/**
 * The pause is a trigger that waits for a user lock ({@code GET_LOCK}) a connection of the test holds, named after
 * the test's database: user locks are the server's, and other databases on it may run this test too.
 */
class MysqlPromotionRaceTest extends PromotionRaceContractTest {

	private static TestDatabase database;

	@Override
	protected TestDatabase database() {
		if (database == null) {
			database = new MysqlTestDatabase();
		}
		return database;
	}

	@Override
	protected Pause pauseTheUpdateOf(long id) {
		JdbcClient jdbc = JdbcClient.create(database().dataSource());
		String lock = "jobqueue_test_pause." + jdbc.sql("SELECT DATABASE()").query(String.class).single();
		try {
			Connection holder = database().dataSource().getConnection();
			try (Statement statement = holder.createStatement()) {
				statement.execute("DO GET_LOCK('" + lock + "', 0)");
			}
			jdbc.sql("DROP TRIGGER IF EXISTS jobqueue_test_pause").update();
			jdbc.sql("""
					CREATE TRIGGER jobqueue_test_pause BEFORE UPDATE ON jobqueue_job FOR EACH ROW
					BEGIN
					    IF NEW.id = %d THEN
					        DO GET_LOCK('%s', 60);
					        DO RELEASE_LOCK('%s');
					    END IF;
					END""".formatted(id, lock, lock)).update();
			return new Pause() {

				@Override
				public boolean reached() {
					return jdbc.sql("SELECT count(*) FROM information_schema.processlist WHERE state = 'User lock' AND db = DATABASE()")
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
							statement.execute("DO RELEASE_LOCK('" + lock + "')");
						}
					}
					catch (SQLException ex) {
						throw new IllegalStateException(ex);
					}
				}

				@Override
				public void close() {
					release();
					jdbc.sql("DROP TRIGGER IF EXISTS jobqueue_test_pause").update();
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
