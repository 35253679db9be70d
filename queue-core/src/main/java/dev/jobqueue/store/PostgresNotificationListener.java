package dev.jobqueue.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.runtime.WakeupSource;

/**
 * Wakes pollers when any node enqueues a job that is due now: {@code LISTEN jobqueue_ready} on one
 * connection of its own, held for the life of the runtime. The notification's payload is the queue's
 * name and nothing else. When the connection breaks (server restart, killed backend) it reconnects
 * with a growing pause; notifications sent meanwhile are lost, which costs latency only, since the
 * pollers still poll.
 *
 * <p>Not for PgBouncer in transaction pooling mode, where a LISTEN does not stay on one server
 * connection: use {@link PostgresJobStore#PostgresJobStore(DataSource, boolean) a store that does
 * not notify} and no listener there.
 */
public final class PostgresNotificationListener implements WakeupSource {

	private static final Logger log = LoggerFactory.getLogger(PostgresNotificationListener.class);

	private static final Duration WAIT = Duration.ofMillis(500);

	private static final Duration FIRST_PAUSE = Duration.ofMillis(100);

	private static final Duration MAX_PAUSE = Duration.ofSeconds(5);

	private final DataSource dataSource;

	private volatile boolean running;

	private Thread thread;

	/** @param dataSource where the listening connection comes from; it keeps one for as long as it runs */
	public PostgresNotificationListener(DataSource dataSource) {
		this.dataSource = dataSource;
	}

	@Override
	public synchronized void start(Consumer<String> wake) {
		if (running) {
			return;
		}
		running = true;
		thread = new Thread(() -> listen(wake), "jobqueue-notifications");
		thread.setDaemon(true);
		thread.start();
	}

	@Override
	public synchronized void stop() {
		running = false;
		if (thread != null) {
			try {
				thread.join(WAIT.multipliedBy(2).toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			thread = null;
		}
	}

	private void listen(Consumer<String> wake) {
		Duration pause = FIRST_PAUSE;
		boolean broken = false;
		while (running) {
			try {
				listenOnce(wake, broken);
				broken = false;
				pause = FIRST_PAUSE;
			}
			catch (SQLException | RuntimeException ex) {
				if (!running) {
					return;
				}
				if (!broken) {
					log.warn("jobqueue lost its notification connection; pollers fall back to their poll interval "
							+ "until it is back (retrying every {} at most)", MAX_PAUSE, ex);
					broken = true;
				}
				sleep(pause);
				pause = pause.multipliedBy(2).compareTo(MAX_PAUSE) > 0 ? MAX_PAUSE : pause.multipliedBy(2);
			}
		}
	}

	/** Listens on one connection until stopped (returns) or until the connection fails (throws). */
	private void listenOnce(Consumer<String> wake, boolean recovering) throws SQLException {
		try (Connection connection = dataSource.getConnection()) {
			try {
				PGConnection pg = subscribe(connection);
				if (recovering) {
					log.info("jobqueue is listening for notifications again");
				}
				receive(pg, wake);
				unsubscribe(connection);
			}
			catch (SQLException ex) {
				revealBroken(connection);
				throw ex;
			}
		}
	}

	/**
	 * The failure surfaced through the driver's own connection, which a pool does not watch; a
	 * statement through the pool's handle lets the pool see the connection is dead and discard it,
	 * rather than lend it to the next caller.
	 */
	private static void revealBroken(Connection connection) {
		try (Statement statement = connection.createStatement()) {
			statement.execute("SELECT 1");
		}
		catch (SQLException expected) {
			// The point was to fail through the pool.
		}
	}

	private static PGConnection subscribe(Connection connection) throws SQLException {
		connection.setAutoCommit(true);
		try (Statement statement = connection.createStatement()) {
			statement.execute("LISTEN jobqueue_ready");
		}
		return connection.unwrap(PGConnection.class);
	}

	/** The connection goes back to its pool: it must not keep collecting notifications there. */
	private static void unsubscribe(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("UNLISTEN *");
		}
	}

	private void receive(PGConnection pg, Consumer<String> wake) throws SQLException {
		while (running) {
			// Blocks on the socket for up to WAIT; a broken connection throws here.
			PGNotification[] notifications = pg.getNotifications((int) WAIT.toMillis());
			if (notifications != null) {
				for (PGNotification notification : notifications) {
					wake.accept(notification.getParameter());
				}
			}
		}
	}

	/** Sleeps in short steps, so that a stop during a long pause does not wait for it. */
	private void sleep(Duration pause) {
		long deadline = System.nanoTime() + pause.toNanos();
		try {
			while (running && System.nanoTime() < deadline) {
				Thread.sleep(Math.min(50, pause.toMillis()));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			running = false;
		}
	}
}
