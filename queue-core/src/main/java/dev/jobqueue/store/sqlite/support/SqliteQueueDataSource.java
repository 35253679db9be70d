package dev.jobqueue.store.sqlite.support;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.springframework.core.InfrastructureProxy;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The application's SQLite {@code DataSource} as the queue uses it: each connection set up by
 * {@link SqliteConnections} while the queue holds it, and its transactions begun {@code IMMEDIATE} once
 * through the process's {@link SqliteWriteGate}.
 *
 * <p>As an {@link InfrastructureProxy} it is the same transactional resource as the {@code DataSource}
 * it wraps: a transaction the application began there is found from here (an enqueue joins it, as the
 * job must commit with the caller's work), and a transaction the queue begins here is joined by the
 * application's code on the wrapped one (a transactional handler's repositories).
 */
public final class SqliteQueueDataSource extends DelegatingDataSource implements InfrastructureProxy {

	private final SqliteWriteGate gate;

	public SqliteQueueDataSource(DataSource application, SqliteWriteGate gate) {
		super(application);
		this.gate = gate;
	}

	public SqliteWriteGate gate() {
		return gate;
	}

	@Override
	public Connection getConnection() throws SQLException {
		return prepared(obtainTargetDataSource().getConnection());
	}

	@Override
	public Connection getConnection(String username, String password) throws SQLException {
		return prepared(obtainTargetDataSource().getConnection(username, password));
	}

	private Connection prepared(Connection connection) throws SQLException {
		SqliteConnections.Borrowed borrowed;
		try {
			borrowed = SqliteConnections.borrow(connection);
		}
		catch (SQLException | RuntimeException ex) {
			connection.close();
			throw ex;
		}
		return ImmediateTransactions.of(connection, gate, borrowed);
	}

	@Override
	public Object getWrappedObject() {
		return obtainTargetDataSource();
	}

	@Override
	public String toString() {
		return "jobqueue's view of " + obtainTargetDataSource();
	}
}
