package dev.jobqueue.store.postgres;

import java.time.Duration;
import java.util.Collection;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.BatchStatements;
import dev.jobqueue.store.BatchTransactions;
import dev.jobqueue.store.DependencyStatements;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.StatementRunner;
import dev.jobqueue.store.RacingMigration;
import dev.jobqueue.store.TestHooks;
import dev.jobqueue.store.TransitionSql;
import dev.jobqueue.store.WakeupSource;
import dev.jobqueue.store.postgres.support.PostgresNotificationListener;
import dev.jobqueue.store.postgres.support.PostgresReadyNotifier;
import dev.jobqueue.store.postgres.support.PostgresVacuum;

/**
 * PostgreSQL: claims with {@code SKIP LOCKED}, wakeups by {@code LISTEN}/{@code NOTIFY}. Every time is the
 * database's {@code now()}, so nodes with skewed clocks still agree on what is due and which lease has expired.
 */
public final class PostgresDialect implements Dialect {

	public static final String VENDOR = "postgresql";

	/** The state machine's conditions, for PostgreSQL's boolean columns. */
	static final TransitionSql TRANSITIONS = TransitionSql.BOOLEAN_COLUMNS;

	/** The database's clock, as the statements written once for every dialect read and store it. */
	private static final String NOW = "statement_timestamp()";

	/**
	 * The least time between two notifications of a queue from one store: what a listener may wait beyond
	 * an enqueue's commit when another enqueue of the queue was just announced.
	 */
	public static final Duration NOTIFY_INTERVAL = Duration.ofMillis(10);

	/** A store that notifies listeners ({@link PostgresNotificationListener}) of every job due now. */
	public static JobStore jobStore(DataSource dataSource) {
		return jobStore(dataSource, true);
	}

	/**
	 * @param notify whether jobs due now send {@code pg_notify('jobqueue_ready', queue)}; false for
	 * poll-only operation, e.g. behind PgBouncer in transaction pooling mode, where LISTEN cannot work
	 */
	public static JobStore jobStore(DataSource dataSource, boolean notify) {
		return new PostgresDialect().store(dataSource, notify, Duration.ZERO);
	}

	@Override
	public String vendor() {
		return VENDOR;
	}

	/**
	 * A store whose statements give up after {@code statementTimeout} (zero: never), for the runtime's own
	 * statements: a claim, heartbeat or completion stuck behind a lock, or a server that stopped answering,
	 * must fail and be tried again rather than hold its thread while leases run out. Whole seconds, as JDBC
	 * counts them; at least one. VACUUM is never timed out.
	 */
	@Override
	public JobStore store(DataSource dataSource, boolean notify, Duration statementTimeout) {
		JdbcTemplate template = new JdbcTemplate(dataSource);
		if (!statementTimeout.isZero()) {
			template.setQueryTimeout((int) Math.max(1, statementTimeout.toSeconds()));
		}
		JdbcClient jdbc = JdbcClient.create(template);
		PostgresReadyNotifier notifier = notify ? new PostgresReadyNotifier(jdbc, NOTIFY_INTERVAL) : null;
		PostgresEnqueue enqueue = new PostgresEnqueue(dataSource, jdbc, notifier);
		BatchTransactions transactions = new BatchTransactions(dataSource);
		return new JobStore(VENDOR, enqueue, new PostgresClaims(jdbc), new PostgresOutcomes(jdbc, notify),
				new PostgresPromotions(dataSource, jdbc, notifier), new PostgresPauses(jdbc, notify),
				new PostgresSchedules(dataSource, jdbc, enqueue),
				new PostgresMaintenance(jdbc, new PostgresVacuum(dataSource)), new PostgresNodes(jdbc),
				new PostgresSearch(jdbc), new PostgresExplain(jdbc), new PostgresBulk(jdbc, notify),
				new PostgresTelemetry(jdbc), new PostgresSteps(jdbc),
				new DependencyStatements(jdbc, StatementRunner.DIRECT, transactions, enqueue, TRANSITIONS, NOW),
				new BatchStatements(jdbc, StatementRunner.DIRECT, transactions, TRANSITIONS, NOW));
	}

	@Override
	public TestHooks testHooks(DataSource dataSource) {
		return new PostgresTestSupport(JdbcClient.create(dataSource));
	}

	@Override
	public void migrate(DataSource dataSource) {
		RacingMigration.migrate(dataSource, VENDOR);
	}

	/** {@code LISTEN} needs a session of its own, which a transaction pooler cannot give: none without notify. */
	@Override
	public WakeupSource wakeups(DataSource dataSource, Collection<String> queues, boolean notify) {
		return notify ? new PostgresNotificationListener(dataSource, queues) : null;
	}

	/** As {@link #wakeups}: none without notify. */
	@Override
	public WakeupSource finishes(DataSource dataSource, boolean notify) {
		return notify ? PostgresNotificationListener.finishes(dataSource) : null;
	}

	@Override
	public TransactionOperations handlerTransactions(TransactionOperations transactions) {
		return transactions;
	}
}
