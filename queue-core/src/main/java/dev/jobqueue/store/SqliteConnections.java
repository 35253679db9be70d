package dev.jobqueue.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

import org.sqlite.BusyHandler;
import org.sqlite.SQLiteConnection;

/**
 * Prepares each physical SQLite connection once, the first time the queue takes it from the pool:
 * <ul>
 * <li>a busy handler: a connection that finds the write lock taken waits for it instead of failing at
 * once, trying again every millisecond or so ({@link SqliteBusyHandler}) for the application's
 * {@code busy_timeout} or {@link SqliteDataSources#BUSY_TIMEOUT}, whichever is longer;</li>
 * <li>{@code synchronous=NORMAL} where it is SQLite's default, {@code FULL}: in WAL mode a commit then
 * writes the WAL without waiting for the disk, and the disk is synced at checkpoints. A crash of the
 * process loses nothing; a power loss or an OS crash may roll back the last commits, and never
 * corrupts the file. A connection the application set to {@code OFF} or {@code EXTRA} keeps its
 * choice.</li>
 * </ul>
 * Both are properties of the connection, so the application's own work on a connection the queue
 * prepared has them too.
 */
final class SqliteConnections {

	private static final int SYNCHRONOUS_FULL = 2;

	/** Prepared connections, weakly: the pool decides when a connection goes. */
	private static final Set<SQLiteConnection> prepared = Collections.synchronizedSet(
			Collections.newSetFromMap(new WeakHashMap<>()));

	private SqliteConnections() {
	}

	static void prepare(Connection connection) throws SQLException {
		SQLiteConnection sqlite = connection.unwrap(SQLiteConnection.class);
		if (prepared.contains(sqlite)) {
			return;
		}
		try (Statement statement = connection.createStatement()) {
			long busyTimeout = Long.parseLong(SqliteDataSources.single(statement, "PRAGMA busy_timeout"));
			Duration wait = SqliteDataSources.BUSY_TIMEOUT.compareTo(Duration.ofMillis(busyTimeout)) > 0
					? SqliteDataSources.BUSY_TIMEOUT : Duration.ofMillis(busyTimeout);
			BusyHandler.setHandler(sqlite, new SqliteBusyHandler(wait));
			int synchronous = Integer.parseInt(SqliteDataSources.single(statement, "PRAGMA synchronous"));
			if (synchronous == SYNCHRONOUS_FULL) {
				statement.execute("PRAGMA synchronous = NORMAL");
			}
		}
		prepared.add(sqlite);
	}
}
