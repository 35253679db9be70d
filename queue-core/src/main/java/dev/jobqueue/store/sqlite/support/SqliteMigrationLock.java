package dev.jobqueue.store.sqlite.support;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.ReentrantLock;

import javax.sql.DataSource;

/**
 * An operating-system lock on a file beside the database ({@code <database>-jobqueue-migration.lock}),
 * held while Flyway migrates: SQLite's own write lock cannot serve, since Flyway's connections would
 * have to take it themselves, transaction by transaction. The file stays: deleting it while another
 * process waits on it would let a third lock a new file. Threads of one process take a lock of the JVM
 * first, as the operating system's lock belongs to the process. A database without a file (in memory)
 * is reached by one process only and needs only that lock of the JVM.
 */
public final class SqliteMigrationLock implements AutoCloseable {

	public static final String SUFFIX = "-jobqueue-migration.lock";

	private static final ReentrantLock inThisProcess = new ReentrantLock();

	/** Null for a database without a file, as is {@link #lock}. */
	private final FileChannel channel;

	private final FileLock lock;

	private SqliteMigrationLock(FileChannel channel, FileLock lock) {
		this.channel = channel;
		this.lock = lock;
	}

	public static SqliteMigrationLock take(DataSource dataSource) {
		String database = databaseFile(dataSource);
		inThisProcess.lock();
		if (database.isEmpty()) {
			return new SqliteMigrationLock(null, null);
		}
		Path file = Path.of(database + SUFFIX);
		try {
			FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
			return new SqliteMigrationLock(channel, lockOrClose(channel));
		}
		catch (IOException | RuntimeException ex) {
			inThisProcess.unlock();
			throw new IllegalStateException("Could not lock " + file + " for jobqueue's schema migration", ex);
		}
	}

	private static FileLock lockOrClose(FileChannel channel) throws IOException {
		try {
			return channel.lock();
		}
		catch (IOException | RuntimeException ex) {
			channel.close();
			throw ex;
		}
	}

	/** The main database's file as SQLite names it; empty for a database in memory. */
	private static String databaseFile(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			String file = SqliteBusyRetry.retry("PRAGMA database_list", () -> mainFile(statement));
			return file == null ? "" : file;
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not read which file the SQLite database is", ex);
		}
	}

	private static String mainFile(Statement statement) throws SQLException {
		try (var rows = statement.executeQuery("PRAGMA database_list")) {
			while (rows.next()) {
				if ("main".equals(rows.getString("name"))) {
					return rows.getString("file");
				}
			}
			return null;
		}
	}

	@Override
	public void close() {
		try {
			if (channel != null) {
				releaseAndClose();
			}
		}
		finally {
			inThisProcess.unlock();
		}
	}

	private void releaseAndClose() {
		try (channel) {
			lock.release();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not release the lock of jobqueue's schema migration", ex);
		}
	}
}
