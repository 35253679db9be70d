package dev.jobqueue.store.mysql.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The store's own short transactions, at READ COMMITTED. InnoDB's default, REPEATABLE READ, locks the gaps
 * between the index entries a locking read walks, and two claims or a claim and an enqueue that lock
 * neighbouring gaps in opposite orders deadlock: the classic trap of a queue on MySQL. READ COMMITTED locks
 * the rows a statement changes and nothing between them. A caller's transaction is joined as it is (its
 * isolation is its own).
 *
 * <p>The level is set with {@code SET TRANSACTION ISOLATION LEVEL}, which applies to the next transaction only,
 * as the first statement of ours: no transaction has begun on the connection yet (auto-commit off begins none
 * until a statement reads; checked on MariaDB 10.11 with a read that sees a row committed meanwhile, and the
 * next transaction back at the session's level), and the session's level stays as it was, so nothing has to be
 * put back. Spring's own isolation setting changes the session's level and resets it after each transaction,
 * two round trips more per transaction.
 */
public final class MysqlTransactions {

	private final DataSource dataSource;

	private final JdbcClient jdbc;

	private final TransactionTemplate own;

	public MysqlTransactions(DataSource dataSource, JdbcClient jdbc) {
		this.dataSource = dataSource;
		this.jdbc = jdbc;
		JdbcTransactionManager manager = new JdbcTransactionManager(dataSource);
		this.own = new TransactionTemplate(manager);
		this.own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	/**
	 * In the caller's transaction if one is under way on the store's connection, else in one of our own. "Under
	 * way" is read from the connection, auto-commit off, as {@code BatchTransactions} reads it: a
	 * {@code JpaTransactionManager} binds its connection without marking a transaction a JDBC manager would join.
	 */
	public <T> T run(Supplier<T> work) {
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			Connection connection = DataSourceUtils.getConnection(dataSource);
			try {
				if (!connection.getAutoCommit()) {
					return work.get();
				}
			}
			catch (SQLException ex) {
				throw new IllegalStateException("Could not tell whether a transaction is under way", ex);
			}
			finally {
				DataSourceUtils.releaseConnection(connection, dataSource);
			}
		}
		return runOwn(work);
	}

	/** In a transaction of our own, whatever the caller's. */
	public <T> T runOwn(Supplier<T> work) {
		return own.execute(status -> {
			jdbc.sql("SET TRANSACTION ISOLATION LEVEL READ COMMITTED").update();
			return work.get();
		});
	}
}
