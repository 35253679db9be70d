package dev.jobqueue.store.sqlite.support;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.WeakHashMap;

import javax.sql.DataSource;

import org.springframework.transaction.support.TransactionOperations;

/**
 * How the queue uses a SQLite {@code DataSource}, whatever the application configured on it:
 * <ul>
 * <li>the database is switched to WAL once, at startup (the mode is stored in the file, so every
 * process then uses it), so that readers never wait for the writer; a database that cannot be in WAL
 * mode (in memory, read-only) fails at startup saying so;</li>
 * <li>while the queue holds a connection, it waits up to {@link #BUSY_TIMEOUT} for the write lock and
 * commits with {@code synchronous=NORMAL}; it goes back to the pool with the application's settings
 * (see {@link SqliteConnections});</li>
 * <li>every transaction the queue begins for itself is {@code BEGIN IMMEDIATE}: it takes the write lock
 * at its start, while waiting can still help (see {@link ImmediateTransactions});</li>
 * <li>the queue's writers in this process line up for the write lock ({@link SqliteWriteGate}).</li>
 * </ul>
 * Statements that join a transaction the application began on its own {@code DataSource} (an enqueue
 * inside {@code @Transactional}) run on the application's connection, with the application's settings;
 * so do transactional handlers, whose transactions are the application's ({@link #forHandlers}).
 */
public final class SqliteDataSources {

	/** How long a connection of the queue waits for another one's write lock before SQLite reports busy. */
	public static final Duration BUSY_TIMEOUT = Duration.ofSeconds(5);

	/** Weakly: an application that closes a {@code DataSource} and makes another leaves nothing behind. */
	private static final Map<DataSource, SqliteWriteGate> gates = new WeakHashMap<>();

	private SqliteDataSources() {
	}

	/**
	 * The {@code DataSource} the queue's statements and transactions use on {@code dataSource}: the same
	 * connections, prepared as described above. Transactions bound to either are bound to both, so an
	 * enqueue joins a transaction the application began on {@code dataSource}. Switches the database to
	 * WAL, and fails when it cannot be.
	 */
	public static DataSource forQueue(DataSource dataSource) {
		return queueView(dataSource);
	}

	/**
	 * The transactions transactional handlers run in, from {@code transactions} begun on the application's
	 * own {@code DataSource} (so its repositories join them): deferred, holding the write lock only from the
	 * handler's first write, and run again from the start when SQLite refuses that write (see
	 * {@link SqliteHandlerTransactions}).
	 */
	public static TransactionOperations forHandlers(TransactionOperations transactions) {
		return new SqliteHandlerTransactions(transactions);
	}

	public static SqliteQueueDataSource queueView(DataSource dataSource) {
		if (dataSource instanceof SqliteQueueDataSource queue) {
			return queue;
		}
		SqliteQueueDataSource queue = new SqliteQueueDataSource(dataSource, gateOf(dataSource));
		requireWal(queue);
		return queue;
	}

	/** One gate per database, however many views of it the queue makes. */
	private static SqliteWriteGate gateOf(DataSource dataSource) {
		synchronized (gates) {
			return gates.computeIfAbsent(dataSource, d -> new SqliteWriteGate());
		}
	}

	private static void requireWal(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			String mode = SqliteBusyRetry.retry("PRAGMA journal_mode", () -> walOrCurrentMode(statement));
			if (!"wal".equalsIgnoreCase(mode)) {
				throw new IllegalStateException("jobqueue needs SQLite's WAL journal mode, and the database at "
						+ connection.getMetaData().getURL() + " stays in '" + mode + "' mode: use a database file "
						+ "the application can write (an in-memory database is not shared between connections)");
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not switch the SQLite database to WAL mode for jobqueue", ex);
		}
	}

	private static String walOrCurrentMode(Statement statement) throws SQLException {
		String mode = single(statement, "PRAGMA journal_mode");
		return "wal".equalsIgnoreCase(mode) ? mode : single(statement, "PRAGMA journal_mode = WAL");
	}

	public static String single(Statement statement, String pragma) throws SQLException {
		try (ResultSet result = statement.executeQuery(pragma)) {
			return result.next() ? result.getString(1) : null;
		}
	}
}
