package dev.jobqueue.support;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * A data source that keeps the notices the server sent with each statement: PostgreSQL's driver hands
 * them to the statement as warnings, which the code under test closes without reading.
 */
public final class StatementNotices extends DelegatingDataSource {

	private final List<String> notices = new ArrayList<>();

	public StatementNotices(DataSource target) {
		super(target);
	}

	public synchronized List<String> notices() {
		return List.copyOf(notices);
	}

	@Override
	public Connection getConnection() throws SQLException {
		Connection connection = super.getConnection();
		return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Connection.class },
				(proxy, method, args) -> {
					Object result = invoke(connection, method, args);
					return result instanceof Statement statement ? collecting(statement) : result;
				});
	}

	private Statement collecting(Statement statement) {
		Class<?> type = statement instanceof CallableStatement ? CallableStatement.class
				: statement instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
		return (Statement) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { type },
				(proxy, method, args) -> {
					if (method.getName().equals("close")) {
						keep(statement.getWarnings());
					}
					return invoke(statement, method, args);
				});
	}

	private synchronized void keep(SQLWarning warning) {
		for (SQLWarning w = warning; w != null; w = w.getNextWarning()) {
			notices.add(w.getMessage());
		}
	}

	private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}
}
