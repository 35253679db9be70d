package dev.jobqueue.store.sqlite.support;

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
 * the busy timeout ran out. Before it, the transaction lines up at the process's {@link SqliteWriteGate},
 * which it leaves when it commits, rolls back or its connection closes.
 *
 * <p>The immediate mode is set only for the {@code BEGIN} sent here, not left on the connection:
 * sqlite-jdbc begins the next transaction right after each commit while auto-commit is off, and an
 * immediate one there would take the write lock again for nothing until Spring turns auto-commit back
 * on (or fail the commit when another writer held the lock).
 *
 * <p>Closing it gives the connection's settings back to the application ({@link SqliteConnections}) before
 * the connection returns to the pool.
 */
public final class ImmediateTransactions implements InvocationHandler {

	private final Connection target;

	private final SqliteWriteGate gate;

	private final SqliteConnections.Borrowed borrowed;

	/** Set once the connection went back: the pool may already have lent it to someone else. */
	private boolean closed;

	/** Whether the transaction under way entered the gate, which it leaves as it ends. */
	private boolean inGate;

	private ImmediateTransactions(Connection target, SqliteWriteGate gate, SqliteConnections.Borrowed borrowed) {
		this.target = target;
		this.gate = gate;
		this.borrowed = borrowed;
	}

	public static Connection of(Connection target, SqliteWriteGate gate, SqliteConnections.Borrowed borrowed) {
		return (Connection) Proxy.newProxyInstance(ImmediateTransactions.class.getClassLoader(),
				new Class<?>[] { Connection.class }, new ImmediateTransactions(target, gate, borrowed));
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
				return endingTransaction(method, args);
			case "commit":
				return endingTransaction(method, args);
			case "close":
				return closing(method, args);
			case "rollback":
				// A rollback to a savepoint leaves the transaction going.
				return args == null ? endingTransaction(method, args) : invokeTarget(method, args);
			default:
				return invokeTarget(method, args);
		}
	}

	private Object invokeTarget(Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException();
		}
	}

	private Object closing(Method method, Object[] args) throws Throwable {
		if (closed) {
			return null;
		}
		closed = true;
		try {
			borrowed.giveBack();
		}
		finally {
			endingTransaction(method, args);
		}
		return null;
	}

	/** Leaves the gate once the transaction is over: committed, rolled back, or its connection closed. */
	private Object endingTransaction(Method method, Object[] args) throws Throwable {
		try {
			return invokeTarget(method, args);
		}
		finally {
			if (inGate) {
				inGate = false;
				gate.leave();
			}
		}
	}

	private void beginImmediate() throws SQLException {
		inGate = gate.enter();
		try {
			beginImmediateInGate();
		}
		catch (SQLException | RuntimeException ex) {
			if (inGate) {
				inGate = false;
				gate.leave();
			}
			throw ex;
		}
	}

	private void beginImmediateInGate() throws SQLException {
		SQLiteConnectionConfig config = target.unwrap(SQLiteConnection.class).getConnectionConfig();
		SqliteBusyRetry.retry("BEGIN IMMEDIATE", () -> {
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
