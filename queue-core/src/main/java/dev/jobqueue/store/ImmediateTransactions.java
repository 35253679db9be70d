package dev.jobqueue.store;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;

import org.sqlite.SQLiteConfig.TransactionMode;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteConnectionConfig;

/**
 * A connection whose transactions begin {@code IMMEDIATE}, taking SQLite's write lock at their start.
 * Spring begins a transaction by turning auto-commit off, which sqlite-jdbc answers with a deferred
 * {@code BEGIN}: such a transaction reads first and asks for the write lock at its first write, and if
 * another connection committed in between, SQLite refuses at once ({@code SQLITE_BUSY}) without
 * consulting the busy timeout, since waiting cannot help a transaction that read an outdated snapshot.
 * {@code BEGIN IMMEDIATE} waits for the lock up front, where waiting works, and is retried when even
 * the busy timeout ran out.
 *
 * <p>The immediate mode is set only for the {@code BEGIN} sent here, not left on the connection:
 * sqlite-jdbc begins the next transaction right after each commit while auto-commit is off, and an
 * immediate one there would take the write lock again for nothing until Spring turns auto-commit back
 * on (or fail the commit when another writer held the lock).
 */
final class ImmediateTransactions implements InvocationHandler {

	private final Connection target;

	private ImmediateTransactions(Connection target) {
		this.target = target;
	}

	static Connection of(Connection target) {
		return (Connection) Proxy.newProxyInstance(ImmediateTransactions.class.getClassLoader(),
				new Class<?>[] { Connection.class }, new ImmediateTransactions(target));
	}

	@Override
	public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
		switch (method.getName()) {
			case "equals":
				return proxy == args[0];
			case "hashCode":
				return System.identityHashCode(proxy);
			case "toString":
				return "connection beginning immediate transactions on " + target;
			case "setAutoCommit":
				if (!(Boolean) args[0] && target.getAutoCommit()) {
					beginImmediate();
					return null;
				}
				break;
			default:
				break;
		}
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException();
		}
	}

	private void beginImmediate() throws SQLException {
		SQLiteConnectionConfig config = target.unwrap(SQLiteConnection.class).getConnectionConfig();
		SqliteBusy.retry("BEGIN IMMEDIATE", () -> {
			TransactionMode previous = config.getTransactionMode();
			config.setTransactionMode(TransactionMode.IMMEDIATE);
			try {
				target.setAutoCommit(false);
				return null;
			}
			catch (SQLException ex) {
				// sqlite-jdbc turns its auto-commit flag off before sending BEGIN; a refused BEGIN must leave
				// the connection in auto-commit, or the next attempt would send nothing.
				config.setAutoCommit(true);
				throw ex;
			}
			finally {
				config.setTransactionMode(previous);
			}
		});
	}
}
