package dev.jobqueue.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import javax.sql.DataSource;

/**
 * A session-level advisory lock on a connection of its own, held while Flyway migrates on others.
 * Every process that migrates the queue's schema on this database waits for it in turn.
 */
final class PostgresMigrationLock implements MigrationLock {

	/** The lock's key: "jobqueue" in ASCII, so that it is recognisable in {@code pg_locks}. */
	static final long KEY = 0x6A6F6271756575L;

	private final Connection connection;

	private PostgresMigrationLock(Connection connection) {
		this.connection = connection;
	}

	static PostgresMigrationLock take(DataSource dataSource) {
		try {
			Connection connection = dataSource.getConnection();
			try {
				run(connection, "SELECT pg_advisory_lock(?)");
				return new PostgresMigrationLock(connection);
			}
			catch (SQLException ex) {
				connection.close();
				throw ex;
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not take the lock of jobqueue's schema migration", ex);
		}
	}

	/** Unlocks, and closes the connection, which unlocks too should the unlock itself fail. */
	@Override
	public void close() {
		try (connection) {
			run(connection, "SELECT pg_advisory_unlock(?)");
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not release the lock of jobqueue's schema migration", ex);
		}
	}

	private static void run(Connection connection, String sql) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setLong(1, KEY);
			statement.executeQuery().close();
		}
	}
}
