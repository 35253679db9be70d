package dev.jobqueue.faults.app;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * MySQL and MariaDB have no application name that another session can read: every connection instead
 * registers the name of its process in {@code fault_connection}, keyed by its {@code CONNECTION_ID()}, where
 * the audit triggers look it up and where {@code information_schema.PROCESSLIST} can be joined to find a
 * process's sessions. A connection that did not register is audited as {@code unregistered-<id>}, a name
 * that no invariant takes for a lease holder's process.
 *
 * <p>The worker JVMs register through their pool's init SQL ({@link #initSql}), which the runtime's own pool,
 * if it has one, copies; the test JVM through this data source, which also lets its connections read
 * {@code ||} as concatenation, as the invariants' SQL, written once for every database, does.
 */
public final class MysqlWriterName extends DelegatingDataSource {

	private static final String REGISTER = "REPLACE INTO fault_connection (id, writer) VALUES (CONNECTION_ID(), ?)";

	private final String name;

	public MysqlWriterName(DataSource dataSource, String name) {
		super(dataSource);
		this.name = name;
	}

	/**
	 * The statement a worker's pool runs on each new connection. A pool's init SQL takes no parameter; the
	 * name is {@code fault-worker-} and a process id, no character of which needs quoting.
	 */
	public static String initSql(String writer) {
		if (!writer.matches("[a-z0-9-]+")) {
			throw new IllegalArgumentException("Not a writer name to put in SQL: " + writer);
		}
		return "REPLACE INTO fault_connection (id, writer) VALUES (CONNECTION_ID(), '" + writer + "')";
	}

	/** Whether {@code jdbcUrl} reaches MySQL or MariaDB. */
	public static boolean isMysql(String jdbcUrl) {
		return jdbcUrl != null && (jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:"));
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
		try (Statement statement = connection.createStatement()) {
			statement.execute("SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',PIPES_AS_CONCAT')");
		}
		register(connection, name);
		// Outside a transaction of the caller's yet: a pool that hands connections out without autocommit
		// would otherwise let the caller's rollback take the registration with it.
		if (!connection.getAutoCommit()) {
			connection.commit();
		}
		return connection;
	}

	/** Has the audit name {@code writer} for what {@code connection} writes from now on. */
	public static void register(Connection connection, String writer) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(REGISTER)) {
			statement.setString(1, writer);
			statement.executeUpdate();
		}
	}
}
