package dev.jobqueue.store;

import java.util.function.Supplier;

/**
 * How a dialect runs a statement that one shared class of SQL sends: SQLite's, waiting out a busy database; the
 * servers', as it is.
 */
public interface StatementRunner {

	/** Statements run as they are. */
	StatementRunner DIRECT = new StatementRunner() {

		@Override
		public <T> T write(String what, Supplier<T> statement) {
			return statement.get();
		}

		@Override
		public <T> T read(String what, Supplier<T> statement) {
			return statement.get();
		}
	};

	<T> T write(String what, Supplier<T> statement);

	<T> T read(String what, Supplier<T> statement);
}
