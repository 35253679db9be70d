package dev.jobqueue.faults;

import java.time.Duration;
import java.time.Instant;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.store.JobStore;

/**
 * The database of a fault scenario: the queue's schema, plus an audit of every change of
 * {@code jobqueue_job} written by triggers (who wrote it, from which state to which, attempt, lease token,
 * owner and expiry before and after), the probes' execution log ({@code fault_execution}) and the
 * transactional probe's effects ({@code fault_effect}). The audit's columns are the same on every
 * database, so that the {@link Invariants} read them with the same SQL.
 */
interface FaultDatabase extends AutoCloseable {

	DataSource dataSource();

	default JdbcClient jdbc() {
		return JdbcClient.create(dataSource());
	}

	JobStore store();

	/** How the worker JVMs reach the same database. */
	String jdbcUrl();

	/** The workers' lease: short, so that faults play out in seconds, yet safe for this database. */
	Duration lease();

	Duration heartbeat();

	/** {@code instant} as this database's lease columns hold times, to bind against them. */
	Object time(Instant instant);

	/**
	 * Whether the worker process {@code pid} holds no transaction and no lock, so that freezing it
	 * stops nobody else. Asked while that worker is the only one running.
	 */
	boolean holdsNothing(long pid);

	/** Runs {@code work} in one transaction whose writes the audit records as {@code writer}'s. */
	default void writeAs(String writer, Runnable work) {
		new TransactionTemplate(new JdbcTransactionManager(dataSource())).executeWithoutResult(tx -> {
			nameWriter(writer);
			work.run();
		});
	}

	/** Has the audit name {@code writer} for the rest of the current transaction. */
	void nameWriter(String writer);

	/**
	 * Empties the queue, the schedules, the audit, the execution log and the effects. A schedule's row left by an
	 * earlier run would be overdue at the next, and the first node to read it would report the fire times between
	 * as missed.
	 */
	void reset();

	@Override
	void close();
}
