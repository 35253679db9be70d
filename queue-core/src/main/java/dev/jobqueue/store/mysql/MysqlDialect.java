package dev.jobqueue.store.mysql;

import java.time.Duration;
import java.util.Collection;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.store.BatchStatements;
import dev.jobqueue.store.BatchTransactions;
import dev.jobqueue.store.DependencyStatements;
import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.StatementRunner;
import dev.jobqueue.store.RacingMigration;
import dev.jobqueue.store.TestHooks;
import dev.jobqueue.store.TransitionSql;
import dev.jobqueue.store.WakeupSource;
import dev.jobqueue.store.mysql.support.MysqlCasClaim;
import dev.jobqueue.store.mysql.support.MysqlChangeWatcher;
import dev.jobqueue.store.mysql.support.MysqlClaim;
import dev.jobqueue.store.mysql.support.MysqlClaimMethod;
import dev.jobqueue.store.mysql.support.MysqlLockingClaim;
import dev.jobqueue.store.mysql.support.MysqlTransactions;

/**
 * MySQL 8 and MariaDB: claims with {@code SKIP LOCKED} where the server has it, else by compare-and-set
 * ({@link MysqlClaimMethod}). MySQL has no LISTEN/NOTIFY: a process wakes its own pollers after its commits (the
 * runtime does, on every database), and a {@link MysqlChangeWatcher} wakes them for other processes' jobs. Every
 * time is the database's clock, {@code UTC_TIMESTAMP(6)}, stored as {@code DATETIME(6)} in UTC.
 */
public final class MysqlDialect implements Dialect {

	public static final String VENDOR = "mysql";

	/** The state machine's conditions, for MySQL's boolean columns. */
	static final TransitionSql TRANSITIONS = TransitionSql.BOOLEAN_COLUMNS;

	/** The database's clock, as the statements written once for every dialect read and store it. */
	private static final String NOW = "UTC_TIMESTAMP(6)";

	/** A store whose statements never time out, with the claim the server supports. */
	public static JobStore jobStore(DataSource dataSource) {
		return new MysqlDialect().store(dataSource, true, Duration.ZERO);
	}

	/**
	 * As {@link #store}, with the claim {@code claimMethod} whatever the server supports: for tests of each claim.
	 */
	public static JobStore jobStore(DataSource dataSource, Duration statementTimeout, MysqlClaimMethod claimMethod) {
		return jobStore(dataSource, statementTimeout, claimMethod, serverVersion(dataSource));
	}

	@Override
	public String vendor() {
		return VENDOR;
	}

	/**
	 * A store whose statements give up after {@code statementTimeout} (zero: never), as on PostgreSQL: a claim,
	 * heartbeat or completion stuck behind a lock, or a server that stopped answering, must fail and be tried again
	 * rather than hold its thread while leases run out. Whole seconds, as JDBC counts them; at least one. Both
	 * drivers put the JDBC timeout on the server's own: MariaDB Connector/J prefixes the statement with
	 * {@code SET STATEMENT max_statement_time}, MySQL Connector/J kills the query from a timer. The claim is the
	 * one the server's version supports. {@code notify} is not needed: nothing is sent to other processes.
	 */
	@Override
	public JobStore store(DataSource dataSource, boolean notify, Duration statementTimeout) {
		String serverVersion = serverVersion(dataSource);
		return jobStore(dataSource, statementTimeout, MysqlClaimMethod.forServer(serverVersion), serverVersion);
	}

	/** @param serverVersion what the server answers to {@code SELECT VERSION()} */
	private static JobStore jobStore(DataSource dataSource, Duration statementTimeout, MysqlClaimMethod claimMethod,
			String serverVersion) {
		JdbcTemplate template = new JdbcTemplate(dataSource);
		if (!statementTimeout.isZero()) {
			template.setQueryTimeout((int) Math.max(1, statementTimeout.toSeconds()));
		}
		JdbcClient jdbc = JdbcClient.create(template);
		NamedParameterJdbcTemplate named = new NamedParameterJdbcTemplate(template);
		MysqlTransactions transactions = new MysqlTransactions(dataSource, jdbc);
		BatchTransactions batches = new BatchTransactions(dataSource);
		MysqlClaim claim = claimMethod == MysqlClaimMethod.SKIP_LOCKED ? new MysqlLockingClaim(jdbc, transactions)
				: new MysqlCasClaim(jdbc);
		MysqlEnqueue enqueue = new MysqlEnqueue(jdbc, template, batches, MysqlClaimMethod.isMariadb(serverVersion));
		return new JobStore(VENDOR, enqueue, new MysqlClaims(jdbc, named, transactions, claim), new MysqlOutcomes(jdbc),
				new MysqlPromotions(jdbc, transactions), new MysqlPauses(jdbc), new MysqlSchedules(jdbc, enqueue, batches),
				new MysqlMaintenance(jdbc, named, transactions), new MysqlNodes(jdbc), new MysqlSearch(jdbc),
				new MysqlExplain(jdbc), new MysqlBulk(jdbc, transactions), new MysqlTelemetry(jdbc), new MysqlSteps(jdbc),
				new DependencyStatements(jdbc, StatementRunner.DIRECT, batches, enqueue, TRANSITIONS, NOW),
				new BatchStatements(jdbc, StatementRunner.DIRECT, batches, TRANSITIONS, NOW));
	}

	private static String serverVersion(DataSource dataSource) {
		return JdbcClient.create(dataSource).sql("SELECT VERSION()").query(String.class).single();
	}

	@Override
	public TestHooks testHooks(DataSource dataSource) {
		return new MysqlTestSupport(JdbcClient.create(dataSource));
	}

	@Override
	public void migrate(DataSource dataSource) {
		RacingMigration.migrate(dataSource, VENDOR);
	}

	/**
	 * A watcher of the newest id and finish time, which holds one connection; none without notify, for a
	 * deployment that wants the pool's connections for work only: other processes' jobs are then found at the
	 * next poll.
	 */
	@Override
	public WakeupSource wakeups(DataSource dataSource, Collection<String> queues, boolean notify) {
		return notify ? new MysqlChangeWatcher(dataSource, queues, MysqlChangeWatcher.DEFAULT_INTERVAL) : null;
	}

	/** As {@link #wakeups}: without notify, awaiters look again at every poll interval. */
	@Override
	public WakeupSource finishes(DataSource dataSource, boolean notify) {
		return notify ? MysqlChangeWatcher.finishes(dataSource, MysqlChangeWatcher.DEFAULT_INTERVAL) : null;
	}

	@Override
	public TransactionOperations handlerTransactions(TransactionOperations transactions) {
		return transactions;
	}
}
