package dev.jobqueue.store;

import java.sql.SQLException;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.support.SQLExceptionTranslator;

/**
 * Failures of the statements the store runs on a raw connection (COPY, VACUUM) turned into Spring's
 * exceptions, as JdbcClient turns those of the others. A translator may find no category for a
 * failure; the exception is then uncategorized rather than missing.
 */
public final class SqlFailures {

	private SqlFailures() {
	}

	public static DataAccessException translate(SQLExceptionTranslator translator, String task, String sql, SQLException ex) {
		DataAccessException translated = translator.translate(task, sql, ex);
		return translated != null ? translated : new UncategorizedSQLException(task, sql, ex);
	}
}
