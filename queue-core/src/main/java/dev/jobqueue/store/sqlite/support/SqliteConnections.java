package dev.jobqueue.store.sqlite.support;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.sqlite.BusyHandler;
import org.sqlite.SQLiteConnection;

/**
 * The settings the queue gives a connection of the application's pool for as long as the queue holds it,
 * and gives back with it:
 * <ul>
 * <li>a busy handler: a connection that finds the write lock taken waits for it instead of failing at
 * once, trying again every millisecond or so ({@link SqliteBusyHandler}) for the application's
 * {@code busy_timeout} or {@link SqliteDataSources#BUSY_TIMEOUT}, whichever is longer;</li>
 * <li>{@code synchronous=NORMAL} where it is SQLite's default, {@code FULL}: in WAL mode the queue's
 * commits then write the WAL without waiting for the disk, which is synced at checkpoints and at the next
 * {@code FULL} commit. A crash of the process loses nothing; a power loss or an OS crash may roll back the
 * queue's last commits, and never corrupts the file. A connection the application set to {@code OFF} or
 * {@code EXTRA} keeps its choice.</li>
 * </ul>
 * Both are properties of the connection, and the application's own commits on it must keep the
 * durability the application chose: hence they are set each time the queue takes a connection and undone
 * before it goes back to the pool.
 */
public final class SqliteConnections {

	private static final String SETTINGS = "SELECT timeout, synchronous FROM pragma_busy_timeout, pragma_synchronous";

	private static final int SYNCHRONOUS_FULL = 2;

	private SqliteConnections() {
	}

	/** The application's settings of one connection, to be given back when the queue is done with it. */
	public record Borrowed(SQLiteConnection connection, int busyTimeoutMillis, boolean relaxedSynchronous) {

		/**
		 * Puts the application's settings back. {@code PRAGMA synchronous} cannot change inside a transaction:
		 * a connection is given back after its transaction ended (Spring turns auto-commit back on first).
		 */
		void giveBack() throws SQLException {
			BusyHandler.clearHandler(connection);
			connection.setBusyTimeout(busyTimeoutMillis);
			if (relaxedSynchronous) {
				try (Statement statement = connection.createStatement()) {
					statement.execute("PRAGMA synchronous = FULL");
				}
			}
		}
	}

	public static Borrowed borrow(Connection connection) throws SQLException {
		SQLiteConnection sqlite = connection.unwrap(SQLiteConnection.class);
		try (Statement statement = connection.createStatement()) {
			int busyTimeout;
			int synchronous;
			try (ResultSet settings = statement.executeQuery(SETTINGS)) {
				settings.next();
				busyTimeout = settings.getInt(1);
				synchronous = settings.getInt(2);
			}
			Duration wait = SqliteDataSources.BUSY_TIMEOUT.compareTo(Duration.ofMillis(busyTimeout)) > 0
					? SqliteDataSources.BUSY_TIMEOUT : Duration.ofMillis(busyTimeout);
			BusyHandler.setHandler(sqlite, new SqliteBusyHandler(wait));
			boolean relax = synchronous == SYNCHRONOUS_FULL;
			if (relax) {
				statement.execute("PRAGMA synchronous = NORMAL");
			}
			return new Borrowed(sqlite, busyTimeout, relax);
		}
	}
}
