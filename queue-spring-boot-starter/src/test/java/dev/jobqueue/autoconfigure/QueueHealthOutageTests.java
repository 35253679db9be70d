package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import com.zaxxer.hikari.HikariDataSource;

import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.support.SqliteTestDatabase;

/**
 * Health answers within a second whatever the database does: here a PostgreSQL address whose server accepts
 * connections and never answers (a host that hangs, a network that drops replies), behind a pool that waits its
 * default 30 s for a connection. A probe with a 3 s timeout must see DOWN, not time out.
 */
class QueueHealthOutageTests {

	/** What the check may take: its bound and a margin for a loaded machine, well inside a 3 s probe timeout. */
	private static final Duration ANSWERED_WITHIN = Duration.ofMillis(1500);

	private final SqliteTestDatabase samplerDatabase = new SqliteTestDatabase();

	private final List<Socket> accepted = new CopyOnWriteArrayList<>();

	private ServerSocket silentServer;

	private HikariDataSource unanswered;

	private JobQueueHealthIndicator health;

	@AfterEach
	void close() throws IOException {
		if (health != null) {
			health.close();
		}
		// The server goes first: its connections' close ends the pool's attempts at once, not after 30 s.
		if (silentServer != null) {
			silentServer.close();
		}
		for (Socket socket : accepted) {
			socket.close();
		}
		if (unanswered != null) {
			unanswered.close();
		}
		samplerDatabase.close();
	}

	@Test
	void aDatabaseThatNeverAnswersTurnsHealthDownWithinASecondAtEveryProbe() throws Exception {
		silentServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::acceptAndStaySilent, "silent-database");
		acceptor.setDaemon(true);
		acceptor.start();
		unanswered = new HikariDataSource();
		unanswered.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + silentServer.getLocalPort() + "/test?user=postgres");
		unanswered.setInitializationFailTimeout(-1);
		health = new JobQueueHealthIndicator(unanswered, "postgresql",
				new StaticListableBeanFactory().getBeanProvider(JobRuntime.class),
				new QueueHealthThresholds(new QueueHealthSampler(samplerDatabase.store(), List.of("default"),
						Duration.ofSeconds(10)), new JobQueueHealthProperties()));

		for (int probe = 0; probe < 3; probe++) {
			long start = System.nanoTime();
			Health answer = CompletableFuture.supplyAsync(() -> health.health(true))
				.get(ANSWERED_WITHIN.toMillis() * 4, TimeUnit.MILLISECONDS);
			Duration took = Duration.ofNanos(System.nanoTime() - start);

			assertThat(took).as("probe %d", probe).isLessThan(ANSWERED_WITHIN);
			assertThat(answer.getStatus()).isEqualTo(Status.DOWN);
			assertThat(answer.getDetails().get("reason").toString()).contains("did not answer within");
		}
	}

	private void acceptAndStaySilent() {
		try {
			while (true) {
				accepted.add(silentServer.accept());
			}
		}
		catch (IOException closed) {
			// The test is over.
		}
	}
}
