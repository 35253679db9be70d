package dev.jobqueue.faults.app;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

/**
 * A network that eats the answers of claims: a share of the claims run and commit on the server, and then the
 * connection is cut before the worker reads the answer. The worker sees a broken connection (SQLSTATE 08006) and
 * the pool drops that connection, as after a real cut; the jobs stay running under a lease that no worker knows
 * of, until it expires. The answer lost is the claim statement's where it commits by itself (PostgreSQL's claim,
 * MySQL's compare-and-set in auto-commit), and the commit's where the claim is a transaction (MySQL's locking
 * claim, whose rows the worker has read by then).
 */
final class ClaimAnswerLoss {

	/** Text only the claim statements hold: every other statement that sets a state sets another one. */
	private static final String CLAIM_MARK = "SET state = 'running'";

	private static final Set<String> EXECUTIONS = Set.of("execute", "executeQuery", "executeUpdate");

	private final HikariDataSource pool;

	private final double share;

	private ClaimAnswerLoss(HikariDataSource pool, double share) {
		this.pool = pool;
		this.share = share;
	}

	/** {@code pool} with the answers of {@code share} of its claims lost. */
	static DataSource losing(HikariDataSource pool, double share) {
		ClaimAnswerLoss loss = new ClaimAnswerLoss(pool, share);
		return proxy(DataSource.class, pool, (method, args, result) -> method.getName().equals("getConnection")
				? loss.watch((Connection) result) : result);
	}

	private Connection watch(Connection connection) {
		AtomicBoolean claimUncommitted = new AtomicBoolean();
		return proxy(Connection.class, connection, (method, args, result) -> {
			if (method.getName().equals("prepareStatement") && ((String) args[0]).contains(CLAIM_MARK)) {
				return claim(connection, (PreparedStatement) result, claimUncommitted);
			}
			if (method.getName().equals("commit") && claimUncommitted.getAndSet(false)) {
				maybeCut(connection);
			}
			return result;
		});
	}

	private PreparedStatement claim(Connection connection, PreparedStatement statement,
			AtomicBoolean claimUncommitted) {
		return proxy(PreparedStatement.class, statement, (method, args, result) -> {
			if (EXECUTIONS.contains(method.getName())) {
				if (connection.getAutoCommit()) {
					maybeCut(connection);
				}
				else {
					claimUncommitted.set(true);
				}
			}
			return result;
		});
	}

	/** For the share of claims whose answer is lost: the connection cut once the server committed the claim. */
	private void maybeCut(Connection connection) throws SQLException {
		if (ThreadLocalRandom.current().nextDouble() < share) {
			pool.evictConnection(connection);
			throw new SQLException("fault: the connection was cut after the claim committed", "08006");
		}
	}

	/** What becomes of a call's result, once the real call returned it. */
	@FunctionalInterface
	private interface After {

		Object apply(Method method, Object[] args, Object result) throws SQLException;
	}

	private static <T> T proxy(Class<T> type, T target, After after) {
		InvocationHandler handler = (proxy, method, args) -> {
			Object result;
			try {
				result = method.invoke(target, args);
			}
			catch (InvocationTargetException ex) {
				throw ex.getTargetException();
			}
			return after.apply(method, args, result);
		};
		return type.cast(Proxy.newProxyInstance(ClaimAnswerLoss.class.getClassLoader(), new Class<?>[] { type },
				handler));
	}
}
