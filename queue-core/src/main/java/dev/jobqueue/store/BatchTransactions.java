package dev.jobqueue.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs the statements of one batch all or nothing. Inside a transaction under way on the store's
 * connection the batch is a savepoint, rolled back to when a statement fails, so that the caller's
 * transaction goes on without any of the batch (on PostgreSQL a failed statement would otherwise abort
 * it). Anywhere else (no transaction, or one on another DataSource, where each statement would commit
 * on its own) the batch is a transaction of its own.
 *
 * <p>"Under way" is read from the connection itself, auto-commit off, rather than from Spring's
 * transaction status: a {@code JpaTransactionManager} binds its connection for the DataSource without
 * marking it as a transaction that a {@code JdbcTransactionManager} would join, and a transaction begun
 * over it would commit or roll back the caller's work.
 */
public final class BatchTransactions {

	private final DataSource dataSource;

	private final TransactionTemplate ownTransactions;

	private final SQLExceptionTranslator translator;

	public BatchTransactions(DataSource dataSource) {
		this.dataSource = dataSource;
		this.ownTransactions = new TransactionTemplate(new JdbcTransactionManager(dataSource));
		this.translator = new SQLErrorCodeSQLExceptionTranslator(dataSource);
	}

	public <T> T run(Supplier<T> batch) {
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			Connection connection = DataSourceUtils.getConnection(dataSource);
			try {
				if (!connection.getAutoCommit()) {
					return withSavepoint(connection, batch);
				}
			}
			catch (SQLException ex) {
				throw SqlFailures.translate(translator, "savepoint around a batch", null, ex);
			}
			finally {
				DataSourceUtils.releaseConnection(connection, dataSource);
			}
		}
		return ownTransactions.execute(status -> batch.get());
	}

	private static <T> T withSavepoint(Connection connection, Supplier<T> batch) throws SQLException {
		Savepoint savepoint = connection.setSavepoint();
		T result;
		try {
			result = batch.get();
		}
		catch (RuntimeException | Error ex) {
			try {
				connection.rollback(savepoint);
			}
			catch (SQLException rollbackFailure) {
				ex.addSuppressed(rollbackFailure);
			}
			throw ex;
		}
		connection.releaseSavepoint(savepoint);
		return result;
	}
}
