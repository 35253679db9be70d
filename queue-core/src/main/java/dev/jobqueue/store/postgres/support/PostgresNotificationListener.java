package dev.jobqueue.store.postgres.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.store.WakeupSource;

/**
 * Wakes pollers when any node enqueues a job that is due now: {@code LISTEN jobqueue_ready} on one
 * connection of its own, held for the life of the runtime. The notification's payload is the queue's
 * name and nothing else. When the connection breaks (server restart, killed backend) it reconnects
 * with a growing pause. Notifications sent meanwhile are lost, so once it listens again it wakes every
 * queue it was given: their pollers look at once instead of at their next poll.
 *
 * <p>A connection can also die silently (a firewall drops it, the server's host vanishes): the socket
 * then waits for data that never comes, and no error says so. Every {@link #PROBE_INTERVAL} the
 * listener sends a statement on it with a network timeout of {@link #PROBE_TIMEOUT}; a probe without
 * an answer counts as a broken connection. Whatever the listener meets, it logs and carries on.
 *
 * <p>{@link #finishes(DataSource)} listens on {@code jobqueue_finished} instead, for the awaiters of jobs
 * ({@code JobQueue.await}): those notifications carry no payload, and it wakes (with an empty name) each
 * time it starts listening, the first time included, so that jobs that finished before it listened are
 * looked up then.
 *
 * <p>Not for PgBouncer in transaction pooling mode, where a LISTEN does not stay on one server
 * connection: use a store that does not notify ({@code PostgresDialect.jobStore(dataSource, false)}) and no
 * listener there (decision record 025 says why the queue does not try to detect a pooler).
 */
public final class PostgresNotificationListener implements WakeupSource {

	private static final Logger log = LoggerFactory.getLogger(PostgresNotificationListener.class);

	private static final Duration WAIT = Duration.ofMillis(500);

	private static final Duration FIRST_PAUSE = Duration.ofMillis(100);

	private static final Duration MAX_PAUSE = Duration.ofSeconds(5);

	/** How often the listening connection is checked: a silently dropped one is found within this plus the timeout. */
	public static final Duration PROBE_INTERVAL = Duration.ofSeconds(5);

	public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

	private final DataSource dataSource;

	private final List<String> queues;

	/** {@code LISTEN} and the channel: one of two constants, never built from input. */
	private final String listen;

	/** Whether every subscribe wakes the queues, the first one too, rather than only one after a break. */
	private final boolean wakeOnEverySubscribe;

	private volatile boolean running;

	private Thread thread;

	/**
	 * @param dataSource where the listening connection comes from; it keeps one for as long as it runs
	 * @param queues the queues to wake after a reconnect, those the runtime works
	 */
	public PostgresNotificationListener(DataSource dataSource, Collection<String> queues) {
		this(dataSource, queues, "LISTEN jobqueue_ready", false);
	}

	private PostgresNotificationListener(DataSource dataSource, Collection<String> queues, String listen,
			boolean wakeOnEverySubscribe) {
		this.dataSource = dataSource;
		this.queues = List.copyOf(queues);
		this.listen = listen;
		this.wakeOnEverySubscribe = wakeOnEverySubscribe;
	}

	/** Wakes awaiters (with an empty name) whenever jobs may have finished; see the class comment. */
	public static PostgresNotificationListener finishes(DataSource dataSource) {
		return new PostgresNotificationListener(dataSource, List.of(""), "LISTEN jobqueue_finished", true);
	}

	@Override
	public synchronized void start(Consumer<String> wake) {
		if (running) {
			return;
		}
		running = true;
		thread = new Thread(() -> listen(wake), wakeOnEverySubscribe ? "jobqueue-finish-notifications"
				: "jobqueue-notifications");
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
			catch (Throwable ex) {
				// Anything, an Error included: without this thread the queues fall back to polling for good.
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
				PGConnection subscription = subscribe(connection);
				if (recovering) {
					log.info("jobqueue is listening for notifications again; waking every queue for those missed");
				}
				if (recovering || wakeOnEverySubscribe) {
					queues.forEach(wake);
				}
				receive(connection, subscription, wake);
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

	/**
	 * The network timeout bounds every statement on this connection, the probes included; the driver's wait
	 * for notifications sets its own shorter one and puts this one back.
	 */
	private PGConnection subscribe(Connection connection) throws SQLException {
		connection.setAutoCommit(true);
		connection.setNetworkTimeout(Runnable::run, (int) PROBE_TIMEOUT.toMillis());
		listen(connection);
		return connection.unwrap(PGConnection.class);
	}

	/** Also the probe: it needs an answer from the server, changes nothing, and keeps the backend's query text. */
	private void listen(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute(listen);
		}
	}

	/** The connection goes back to its pool: it must not keep collecting notifications there. */
	private static void unsubscribe(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("UNLISTEN *");
		}
	}

	private void receive(Connection connection, PGConnection subscription, Consumer<String> wake)
			throws SQLException {
		long nextProbe = System.nanoTime() + PROBE_INTERVAL.toNanos();
		while (running) {
			if (System.nanoTime() - nextProbe >= 0) {
				listen(connection);
				nextProbe = System.nanoTime() + PROBE_INTERVAL.toNanos();
			}
			// Blocks on the socket for up to WAIT; a connection closed by the server throws here.
			PGNotification[] notifications = subscription.getNotifications((int) WAIT.toMillis());
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
