package dev.jobqueue.autoconfigure;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.sql.DataSource;

/**
 * The health check's question to the database, answered within {@link #ANSWER_WITHIN} whatever the database does. A
 * pool waits up to its connection timeout (Hikari's 30 s by default) and a server that stopped answering holds a
 * connection attempt longer still: a check that waited for either would time out the orchestrator's probe, which
 * then restarts the pod instead of seeing DOWN. So the question runs on a thread of its own; a question still
 * unanswered is waited for again by the next check rather than asked a second time beside it.
 */
final class DatabaseProbe implements AutoCloseable {

	/** Within a 1 s probe budget, with room for the rest of the check, which reads only memory. */
	static final Duration ANSWER_WITHIN = Duration.ofMillis(800);

	private static final int VALIDATION_TIMEOUT_SECONDS = 2;

	private final DataSource dataSource;

	private final ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
		Thread probe = new Thread(task, "jobqueue-health-probe");
		probe.setDaemon(true);
		return probe;
	});

	private Future<Optional<String>> asked;

	DatabaseProbe(DataSource dataSource) {
		this.dataSource = dataSource;
	}

	/**
	 * Why the database is not answering, or empty when it answered a validation.
	 *
	 * @throws SQLException what the pool or the driver said, when it refused
	 */
	Optional<String> problem() throws SQLException, InterruptedException {
		Future<Optional<String>> answer = question();
		try {
			return answer.get(ANSWER_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			return Optional.of("the database did not answer within " + ANSWER_WITHIN.toMillis() + " ms");
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof SQLException refused) {
				throw refused;
			}
			throw new IllegalStateException(ex.getCause());
		}
	}

	private synchronized Future<Optional<String>> question() {
		if (asked == null || asked.isDone()) {
			asked = thread.submit(this::ask);
		}
		return asked;
	}

	private Optional<String> ask() throws SQLException {
		try (Connection connection = dataSource.getConnection()) {
			return connection.isValid(VALIDATION_TIMEOUT_SECONDS) ? Optional.empty()
					: Optional.of("the database did not answer a validation within " + VALIDATION_TIMEOUT_SECONDS + " s");
		}
	}

	/** Stops the thread; a question under way is interrupted. */
	@Override
	public void close() {
		thread.shutdownNow();
	}
}
