package dev.jobqueue.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/** A test's own LISTEN on the queue's channel, {@code jobqueue_ready}, and what it receives. */
public final class ReadyNotifications {

	private ReadyNotifications() {
	}

	public static void listen(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("LISTEN jobqueue_ready");
		}
	}

	/** The payloads (queue names) that arrive within a second. */
	public static List<String> receive(Connection connection) throws SQLException {
		List<String> payloads = new ArrayList<>();
		long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
		while (System.nanoTime() < deadline) {
			PGNotification[] notifications = connection.unwrap(PGConnection.class).getNotifications(100);
			if (notifications != null) {
				for (PGNotification notification : notifications) {
					payloads.add(notification.getParameter());
				}
			}
		}
		return payloads;
	}
}
