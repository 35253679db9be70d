package dev.jobqueue.faults;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

/**
 * A real {@code DataSource} that counts the connections taken from it and the statements prepared on them,
 * so that a test can prove nothing was sent to the database.
 */
final class CountingDataSource {

	private static final Set<String> STATEMENTS = Set.of("prepareStatement", "createStatement", "prepareCall");

	private final AtomicInteger connections = new AtomicInteger();

	private final AtomicInteger statements = new AtomicInteger();

	private final DataSource dataSource;

	CountingDataSource(DataSource target) {
		this.dataSource = proxy(DataSource.class, target, (method) -> {
			if (method.equals("getConnection")) {
				connections.incrementAndGet();
				return true;
			}
			return false;
		});
	}

	DataSource dataSource() {
		return dataSource;
	}

	int connections() {
		return connections.get();
	}

	int statements() {
		return statements.get();
	}

	private <T> T proxy(Class<T> type, T target, Counter counter) {
		InvocationHandler handler = (proxy, method, args) -> {
			boolean connection = counter.counts(method.getName());
			Object result;
			try {
				result = method.invoke(target, args);
			}
			catch (InvocationTargetException ex) {
				throw ex.getTargetException();
			}
			return connection ? proxy(Connection.class, (Connection) result, this::countStatement) : result;
		};
		return type.cast(Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { type }, handler));
	}

	private boolean countStatement(String method) {
		if (STATEMENTS.contains(method)) {
			statements.incrementAndGet();
		}
		return false;
	}

	/** Counts a call by method name; true when its result is a connection to watch in turn. */
	@FunctionalInterface
	private interface Counter {

		boolean counts(String method);
	}
}
