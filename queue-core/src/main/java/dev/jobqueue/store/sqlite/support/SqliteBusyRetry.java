package dev.jobqueue.store.sqlite.support;

import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded retry for the few cases where SQLite still answers {@code SQLITE_BUSY} ("database is
 * locked") although every connection waits on a busy timeout: the timeout ran out while other
 * processes kept the write lock, or the lock was refused without waiting (a WAL file being recovered
 * or checkpointed). Retrying is safe only where the refused statement began the transaction, so it
 * changed nothing: an autocommit statement, or a {@code BEGIN IMMEDIATE}.
 */
public final class SqliteBusyRetry {

	private static final Logger log = LoggerFactory.getLogger(SqliteBusyRetry.class);

	/** Attempts in all; each one may itself wait the busy timeout. */
	public static final int MAX_ATTEMPTS = 6;

	/** SQLite's primary result codes, which sqlite-jdbc reports as the error code. */
	private static final int SQLITE_BUSY = 5;

	private static final int SQLITE_LOCKED = 6;

	private SqliteBusyRetry() {
	}

	/** Something that can be refused with {@code SQLITE_BUSY} before it changed anything. */
	@FunctionalInterface
	public interface Attempt<T, E extends Exception> {

		T run() throws E;
	}

	public static <T, E extends Exception> T retry(String what, Attempt<T, E> attempt) throws E {
		for (int number = 1;; number++) {
			try {
				return attempt.run();
			}
			catch (Exception ex) {
				if (number == MAX_ATTEMPTS || !isBusy(ex)) {
					throw ex;
				}
				log.debug("SQLite was busy for {} (attempt {} of {}); trying again", what, number, MAX_ATTEMPTS);
				if (!pause(number)) {
					throw ex;
				}
			}
		}
	}

	/** Whether {@code error} or one of its causes is SQLite's "busy" or "locked". */
	public static boolean isBusy(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException sql
					&& (sql.getErrorCode() == SQLITE_BUSY || sql.getErrorCode() == SQLITE_LOCKED)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Backs off 10, 20, 40… ms with jitter, so that retrying writers do not all return at once. False when
	 * interrupted: the caller is stopping, and gets the busy error instead of another attempt.
	 */
	private static boolean pause(int attempt) {
		long millis = (10L << (attempt - 1)) + ThreadLocalRandom.current().nextLong(10);
		try {
			Thread.sleep(millis);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}
}
