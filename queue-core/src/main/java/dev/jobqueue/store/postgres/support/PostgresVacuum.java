package dev.jobqueue.store.postgres.support;

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
 *
 * <p>Taking them out of the indexes is a pass over every index of the table, the large ones over the
 * finished rows included. PostgreSQL 14 and later skip that pass when fewer than 2 % of the table's pages
 * hold dead rows ({@code INDEX_CLEANUP AUTO}: "index scan bypassed"), which on a table keeping a day of
 * finished jobs is nearly always: the ready index then kept the entries of every job claimed since the
 * last pass, as many as 2 % of the table's rows. So every {@link #INDEX_CLEANUP_THRESHOLD} dead rows that
 * the maintenance node vacuumed, the VACUUM asks for the pass ({@code INDEX_CLEANUP ON}); in between it leaves it to
 * PostgreSQL. Decision record 014 has the alternatives, measured.
 */
public final class PostgresVacuum {

	private static final Logger log = LoggerFactory.getLogger(PostgresVacuum.class);

	/** PostgreSQL's SQLSTATE for "lock not available", with which SKIP_LOCKED says it skipped the table. */
	private static final String LOCK_NOT_AVAILABLE = "55P03";

	/**
	 * Dead rows vacuumed between two passes over the indexes: the ready index then holds the entries of at most
	 * about 2,000 claimed jobs (a job leaves two dead rows), whatever the table's size. The pass reads every index
	 * whole, so it runs no more often than that.
	 */
	private static final long INDEX_CLEANUP_THRESHOLD = 4_000;

	// PARALLEL 0: a VACUUM of a table whose indexes pass min_parallel_index_scan_size (512 kB, some 20,000 rows)
	// otherwise starts parallel workers for them at every run, even with nothing to clean, which costs more than
	// the run itself.
	private static final String VACUUM = "VACUUM (SKIP_LOCKED, PARALLEL 0) jobqueue_job";

	private static final String VACUUM_WITH_INDEX_CLEANUP =
			"VACUUM (SKIP_LOCKED, PARALLEL 0, INDEX_CLEANUP ON) jobqueue_job";

	private final DataSource dataSource;

	private final JdbcClient jdbc;

	/** Whether this database user may vacuum the table; null until asked, which happens once. */
	private Boolean permitted;

	/**
	 * The dead rows this node's vacuums found since its last pass over the indexes. Only the maintenance node
	 * vacuums, so this counts for the cluster; a node that takes the lease over starts from nothing, and its
	 * first pass may come up to one threshold late.
	 */
	private long deadRowsSinceIndexCleanup;

	public PostgresVacuum(DataSource dataSource) {
		this.dataSource = dataSource;
		this.jdbc = JdbcClient.create(dataSource);
	}

	public synchronized boolean vacuumIfBloated(long deadRowThreshold) {
		if (!permitted()) {
			return false;
		}
		long deadRows = deadRows();
		if (deadRows < deadRowThreshold) {
			return false;
		}
		boolean cleanIndexes = deadRowsSinceIndexCleanup + deadRows >= INDEX_CLEANUP_THRESHOLD;
		if (!vacuum(cleanIndexes ? VACUUM_WITH_INDEX_CLEANUP : VACUUM)) {
			return false;
		}
		deadRowsSinceIndexCleanup = cleanIndexes ? 0 : deadRowsSinceIndexCleanup + deadRows;
		return true;
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
	private boolean vacuum(String vacuum) {
		try (Connection connection = dataSource.getConnection()) {
			boolean autoCommit = connection.getAutoCommit();
			connection.setAutoCommit(true);
			// A VACUUM of a large table may take minutes; the runtime's pool may carry a socket timeout sized
			// for its short statements. The pool puts the connection's own timeout back when it is returned.
			connection.setNetworkTimeout(Runnable::run, 0);
			try (Statement statement = connection.createStatement()) {
				statement.execute(vacuum);
				return !skipped(statement.getWarnings());
			}
			finally {
				connection.setAutoCommit(autoCommit);
			}
		}
		catch (SQLException ex) {
			throw SqlFailures.translate(new SQLStateSQLExceptionTranslator(), "VACUUM", vacuum, ex);
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
