package dev.jobqueue.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Iterator;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link WakeupSource} for a database with no notifications (SQLite, MySQL): it reads the database again and
 * again on a connection of its own, on a daemon thread. What it reads, and whom a change wakes, is the
 * subclass's; the thread, its stop, and its reconnection after any failure are here.
 */
public abstract class ConnectionWatcher implements WakeupSource {

	private static final Logger log = LoggerFactory.getLogger(ConnectionWatcher.class);

	private static final Duration RECONNECT_DELAY = Duration.ofSeconds(1);

	private final DataSource dataSource;

	private final String threadName;

	private Thread thread;

	/** Which queues' pollers would act on a wake now: every queue, unless the runtime said otherwise. */
	private volatile Predicate<String> wanted = queue -> true;

	/** @param dataSource the database; the watcher holds one of its connections while it runs */
	protected ConnectionWatcher(DataSource dataSource, String threadName) {
		this.dataSource = dataSource;
		this.threadName = threadName;
	}

	@Override
	public final synchronized void start(Consumer<String> wake) {
		if (thread == null) {
			thread = new Thread(() -> watch(wake), threadName);
			thread.setDaemon(true);
			thread.start();
		}
	}

	@Override
	public final synchronized void start(Consumer<String> wake, Predicate<String> wanted) {
		this.wanted = wanted;
		start(wake);
	}

	@Override
	public final synchronized void stop() {
		if (thread != null) {
			thread.interrupt();
			try {
				thread.join();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			thread = null;
		}
	}

	/**
	 * Reads {@code connection} and wakes through {@code wake} until the thread is interrupted, then returns. A
	 * failure ends it; it is called again on a new connection a second later.
	 */
	protected abstract void watch(Connection connection, Consumer<String> wake) throws SQLException;

	private void watch(Consumer<String> wake) {
		while (!Thread.currentThread().isInterrupted()) {
			try (Connection connection = dataSource.getConnection()) {
				watch(connection, wake);
			}
			catch (Throwable ex) {
				// Anything, an Error included: without this thread other processes' jobs wait for the poll.
				if (!Thread.currentThread().isInterrupted()) {
					log.warn("Watching the database for other processes' jobs failed; again in {}", RECONNECT_DELAY, ex);
					sleep(RECONNECT_DELAY);
				}
			}
		}
	}

	/**
	 * Reads, with {@code due}, each queue of {@code changed} whose pollers would act on a wake now, wakes those with a
	 * due job, and leaves the others in {@code changed} for a later pass, so that they are read once their pollers
	 * wait. A poller that is claiming, or whose threads are all busy, finds the jobs itself, and the read walks the
	 * head of the claim index, which its claims are busy with. {@code due} takes the queue's name as both its
	 * parameters (its rows and its pause).
	 */
	protected final void wakeDue(Set<String> changed, PreparedStatement due, Consumer<String> wake) throws SQLException {
		for (Iterator<String> queues = changed.iterator(); queues.hasNext();) {
			String queue = queues.next();
			if (wanted.test(queue)) {
				queues.remove();
				due.setString(1, queue);
				due.setString(2, queue);
				try (ResultSet result = due.executeQuery()) {
					if (result.next()) {
						wake.accept(queue);
					}
				}
			}
		}
	}

	/** False when interrupted: the watcher is stopping. */
	protected static boolean sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}
}
