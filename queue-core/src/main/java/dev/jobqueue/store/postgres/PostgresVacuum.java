package dev.jobqueue.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.SQLStateSQLExceptionTranslator;

import dev.jobqueue.store.SqlFailures;

/**
 * Vacuums the job table when it has many dead row versions. Each job leaves two (its claim and its
 * completion update the row), and the claimed ones stay at the front of the ready index, where every
 * claim steps over them until a VACUUM takes them out: btree pages that get no inserts are never
 * cleaned otherwise, and autovacuum's defaults wait for a fifth of the table, or may be off.
 */
final class PostgresVacuum {

	private static final Logger log = LoggerFactory.getLogger(PostgresVacuum.class);

	/** PostgreSQL's SQLSTATE for "lock not available", with which SKIP_LOCKED says it skipped the table. */
	private static final String LOCK_NOT_AVAILABLE = "55P03";

	private static final String VACUUM = "VACUUM (SKIP_LOCKED) jobqueue_job";

	private final DataSource dataSource;

	private final JdbcClient jdbc;

	/** Whether this database user may vacuum the table; null until asked, which happens once. */
	private Boolean permitted;

	PostgresVacuum(DataSource dataSource) {
		this.dataSource = dataSource;
		this.jdbc = JdbcClient.create(dataSource);
	}

	boolean vacuumIfBloated(long deadRowThreshold) {
		return permitted() && deadRows() >= deadRowThreshold && vacuum();
	}

	/**
	 * The table's dead rows as the statistics system counts them: a read of shared memory, not of the
	 * table, so an idle queue costs nothing here. Busy backends report their counts every second or so, an
	 * idle one within ten seconds; a late count only puts a vacuum off to a later interval.
	 */
	private long deadRows() {
		return jdbc.sql("SELECT pg_stat_get_dead_tuples(CAST('jobqueue_job' AS regclass))").query(Long.class).single();
	}

	/**
	 * PostgreSQL answers a VACUUM it does not permit with a WARNING, not an error, so trying every interval
	 * would achieve nothing without a word. Asked once instead; a refusal is logged once and ends the
	 * vacuuming.
	 */
	private synchronized boolean permitted() {
		if (permitted == null) {
			permitted = mayVacuum();
			if (!permitted) {
				log.warn("jobqueue cannot vacuum jobqueue_job: database user {} may not (it owns neither the "
						+ "table nor the database). The table's dead rows slow every claim down until something "
						+ "vacuums it: run the queue as the table's owner, or set jobqueue.vacuum-interval=0 and have "
						+ "autovacuum (with a low autovacuum_vacuum_scale_factor on this table) or a scheduled "
						+ "VACUUM do it",
						jdbc.sql("SELECT current_user").query(String.class).single());
			}
		}
		return permitted;
	}

	private boolean mayVacuum() {
		// Who may vacuum: the table's owner or the database's (or a member of their roles, or a superuser),
		// and from PostgreSQL 17 on also holders of the MAINTAIN privilege, which older servers do not know,
		// hence the CASE, the one construct that guarantees the order of evaluation.
		return jdbc.sql("""
				SELECT CASE
				           WHEN pg_has_role(c.relowner, 'USAGE') OR pg_has_role(d.datdba, 'USAGE') THEN true
				           WHEN current_setting('server_version_num')::int >= 170000
				               THEN has_table_privilege(c.oid, 'MAINTAIN')
				           ELSE false
				       END
				FROM pg_class c, pg_database d
				WHERE c.oid = CAST('jobqueue_job' AS regclass) AND d.datname = current_database()""")
			.query(Boolean.class)
			.single();
	}

	/**
	 * VACUUM refuses to run in a transaction block, so it gets a connection of its own, straight from the
	 * pool rather than the one a Spring transaction of this thread may hold, in auto-commit. SKIP_LOCKED
	 * makes it give up at once when another VACUUM (autovacuum's, or another node's) holds the table,
	 * instead of queueing behind it with every node doing the same.
	 */
	private boolean vacuum() {
		try (Connection connection = dataSource.getConnection()) {
			boolean autoCommit = connection.getAutoCommit();
			connection.setAutoCommit(true);
			// A VACUUM of a large table may take minutes; the runtime's pool may carry a socket timeout sized
			// for its short statements. The pool puts the connection's own timeout back when it is returned.
			connection.setNetworkTimeout(Runnable::run, 0);
			try (Statement statement = connection.createStatement()) {
				statement.execute(VACUUM);
				return !skipped(statement.getWarnings());
			}
			finally {
				connection.setAutoCommit(autoCommit);
			}
		}
		catch (SQLException ex) {
			throw SqlFailures.translate(new SQLStateSQLExceptionTranslator(), "VACUUM", VACUUM, ex);
		}
	}

	private static boolean skipped(SQLWarning warning) {
		for (SQLWarning w = warning; w != null; w = w.getNextWarning()) {
			if (LOCK_NOT_AVAILABLE.equals(w.getSQLState())) {
				log.debug("jobqueue_job not vacuumed: another VACUUM holds it ({})", w.getMessage());
				return true;
			}
			log.warn("VACUUM of jobqueue_job: {}", w.getMessage());
		}
		return false;
	}
}
