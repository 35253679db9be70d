import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.Arrays;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * A notification's way from a sender to a listener with nothing of jobqueue in between: one connection listens
 * with getNotifications(timeout) as PostgresNotificationListener does, another sends pg_notify 20 ms apart, and
 * the time from the send's answer to the listener's receipt is printed for the last 300 of 400.
 * Run: java -Dt=500 -cp postgresql-42.7.14.jar NotifyDelivery.java
 */
public class NotifyDelivery {

	public static void main(String[] args) throws Exception {
		String url = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
		int timeout = Integer.getInteger("t", 500);
		long[] received = new long[400];
		Connection listening = DriverManager.getConnection(url);
		listening.createStatement().execute("LISTEN x");
		PGConnection listener = listening.unwrap(PGConnection.class);
		Thread receiver = new Thread(() -> {
			try {
				for (int n = 0; n < received.length;) {
					PGNotification[] notifications = listener.getNotifications(timeout);
					for (int i = 0; notifications != null && i < notifications.length; i++) {
						received[n++] = System.nanoTime();
					}
				}
			}
			catch (Exception ex) {
				ex.printStackTrace();
			}
		});
		receiver.start();
		long[] sent = new long[received.length];
		try (Connection sending = DriverManager.getConnection(url);
				PreparedStatement notify = sending.prepareStatement("SELECT pg_notify('x', 'q')")) {
			for (int i = 0; i < sent.length; i++) {
				notify.executeQuery().close();
				sent[i] = System.nanoTime();
				Thread.sleep(20);
			}
		}
		receiver.join();
		long[] micros = new long[300];
		for (int i = 100; i < received.length; i++) {
			micros[i - 100] = (received[i] - sent[i]) / 1000;
		}
		Arrays.sort(micros);
		System.out.println("receipt after the send's answer, us: p10 " + micros[30] + " p50 " + micros[150] + " p90 "
				+ micros[270]);
	}
}
