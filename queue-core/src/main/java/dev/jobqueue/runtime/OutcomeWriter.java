package dev.jobqueue.runtime;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

import dev.jobqueue.store.ClaimedJob;

/**
 * Writes the outcome of an execution (succeeded, retry, dead), trying again while the database cannot be
 * reached: a job whose work is done should not run again because its completion met a cut connection.
 * Retrying is safe because every outcome write is fenced by the lease: a try that changes nothing says the
 * lease was lost or an earlier try committed before its connection broke, never that a second outcome was
 * written. It gives up once the lease would have run out since the first failure, for the reaper hands
 * the job out again by then anyway; what it gives up with is thrown, as before.
 */
final class OutcomeWriter {

	private static final Logger log = LoggerFactory.getLogger(OutcomeWriter.class);

	/** admin_shutdown, crash_shutdown, cannot_connect_now: the session is gone, not the statement refused. */
	private static final Set<String> CONNECTION_ENDED = Set.of("57P01", "57P02", "57P03");

	private final Duration patience;

	private final Duration firstPause;

	private final Duration maxPause;

	OutcomeWriter(Duration lease) {
		this(lease, Duration.ofMillis(100), Duration.ofSeconds(2));
	}

	OutcomeWriter(Duration patience, Duration firstPause, Duration maxPause) {
		this.patience = patience;
		this.firstPause = firstPause;
		this.maxPause = maxPause;
	}

	/** Runs {@code write} until it returns, retrying connection failures; returns what it returned. */
	boolean write(ClaimedJob job, BooleanSupplier write) {
		return write("job " + job.id() + " (" + job.kind() + ") attempt " + job.attempt(), write::getAsBoolean);
	}

	/**
	 * Runs {@code write}, the outcome of {@code what}, until it returns, retrying connection failures;
	 * returns what it returned.
	 */
	<T> T write(String what, Supplier<T> write) {
		long deadline = System.nanoTime() + patience.toNanos();
		Duration pause = firstPause;
		boolean retried = false;
		while (true) {
			try {
				T written = write.get();
				if (retried) {
					log.info("Outcome of {} written after the database came back (a try that changes nothing "
							+ "may mean an earlier one committed)", what);
				}
				return written;
			}
			catch (DataAccessException ex) {
				if (!isOutage(ex) || System.nanoTime() + pause.toNanos() > deadline || !sleep(pause)) {
					throw ex;
				}
				log.warn("Could not write the outcome of {}; trying again in {}: {}", what, pause,
						ex.getMostSpecificCause().toString());
				pause = pause.multipliedBy(2).compareTo(maxPause) > 0 ? maxPause : pause.multipliedBy(2);
				retried = true;
			}
		}
	}

	/**
	 * Whether {@code ex} says nothing about the write itself: no connection to be had, a broken one, a
	 * transient refusal (a deadlock, a serialization failure, a timeout). When the database gave a SQLSTATE
	 * it decides, and only a connection failure counts: class 08, or 57P01 – 57P03 (the server ended the
	 * session or is starting up; HikariCP counts those as broken connections too). Spring files classes
	 * 53, 54, 57 and 58 as resource failures as well, but a value too large (54000) or one the database
	 * cannot store (22P05) is refused again on every try. A pool that handed out no connection never
	 * reached the database, whatever its last refusal said; without a SQLSTATE the type decides.
	 */
	static boolean isOutage(RuntimeException ex) {
		if (ex instanceof TransientDataAccessException || ex instanceof CannotGetJdbcConnectionException) {
			return true;
		}
		String state = sqlState(ex);
		if (state != null) {
			return state.startsWith("08") || CONNECTION_ENDED.contains(state);
		}
		return ex instanceof DataAccessResourceFailureException || ex instanceof RecoverableDataAccessException;
	}

	private static String sqlState(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException sql && sql.getSQLState() != null) {
				return sql.getSQLState();
			}
		}
		return null;
	}

	/** False when interrupted (the runtime is stopping): then the outcome is left to the lease. */
	private static boolean sleep(Duration pause) {
		try {
			Thread.sleep(pause.toMillis());
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}
}
