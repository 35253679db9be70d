package dev.jobqueue.faults.app;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.sqlite.Function;
import org.sqlite.SQLiteConnection;

/**
 * SQLite has no application name: every connection handed out gets the SQL function
 * {@code fault_writer()} instead, returning the name of the process it belongs to, which the audit
 * triggers record. A connection without it cannot change a job at all (the trigger fails to compile),
 * so no write escapes the audit.
 */
public final class SqliteWriterName extends DelegatingDataSource {

	private final String name;

	public SqliteWriterName(DataSource dataSource, String name) {
		super(dataSource);
		this.name = name;
	}

	@Override
	public Connection getConnection() throws SQLException {
		return named(super.getConnection());
	}

	@Override
	public Connection getConnection(String username, String password) throws SQLException {
		return named(super.getConnection(username, password));
	}

	private Connection named(Connection connection) throws SQLException {
		register(connection, name);
		return connection;
	}

	/** Has the audit name {@code writer} for what {@code connection} writes from now on. */
	public static void register(Connection connection, String writer) {
		try {
			Function.create(connection.unwrap(SQLiteConnection.class), "fault_writer", new Function() {
				@Override
				protected void xFunc() throws SQLException {
					result(writer);
				}
			});
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not register fault_writer() on a SQLite connection", ex);
		}
	}
}
