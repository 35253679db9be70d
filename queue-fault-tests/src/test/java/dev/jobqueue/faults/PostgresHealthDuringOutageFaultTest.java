package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.RepeatedTest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 19: the database goes away (every connection cut, new ones refused) while a worker runs jobs, and a
 * probe asks the worker's readiness every second with a 3 s timeout, as a Kubernetes probe does. Every answer comes
 * within a second and a half; while the database is gone it is 503 (the queue is DOWN); once it is back, 200 again.
 * The readiness group is set up as the operations guide says: the application's readiness state and the queue.
 */
class PostgresHealthDuringOutageFaultTest extends FaultScenario {

	private static final Logger log = LoggerFactory.getLogger(PostgresHealthDuringOutageFaultTest.class);

	private static final Duration ANSWERED_WITHIN = Duration.ofMillis(1500);

	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

	private static final Duration OUTAGE = Duration.ofSeconds(8);

	/** How long after the cut the queue may still say UP: its probe's 800 ms wait, on a loaded machine. */
	private static final Duration NOTICED_WITHIN = Duration.ofSeconds(2);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}

	@RepeatedTest(5)
	void healthAnswersWithinASecondAndSaysDownWhileTheDatabaseIsGone() throws Exception {
		enqueue(2_000, "probe", 5, i -> Probe.sleeping(20));
		URI server = URI.create(FaultScenarioUrls.withoutPrefix(database.jdbcUrl()));
		int port = freePort();
		URI readiness = URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness");
		try (TcpProxy proxy = new TcpProxy(server.getHost(), server.getPort());
				WorkerFleet fleet = new WorkerFleet(FaultScenarioUrls.throughPort(database.jdbcUrl(), proxy.port()),
						Map.of("jobqueue.lease-duration", "15s", "jobqueue.heartbeat-interval", "1s"))) {
			fleet.start("a", Map.of("spring.main.web-application-type", "servlet", "server.port", String.valueOf(port),
					"management.endpoint.health.probes.enabled", "true",
					"management.endpoint.health.group.readiness.include", "readinessState,jobqueue")).awaitStarted();
			await("the worker ready").atMost(Duration.ofSeconds(30)).until(() -> probe(readiness).status() == 200);

			proxy.cut();
			List<Answer> during = probeEverySecond(readiness, OUTAGE);
			proxy.restore();
			await("the worker ready again").atMost(Duration.ofSeconds(30))
				.until(() -> probe(readiness).status() == 200);
			log.info("scenario 19: readiness during an outage of {} s: {}", OUTAGE.toSeconds(), during);

			assertThat(during).allSatisfy(answer -> assertThat(answer.took()).isLessThan(ANSWERED_WITHIN));
			assertThat(during).filteredOn(answer -> answer.since().compareTo(NOTICED_WITHIN) > 0)
				.isNotEmpty()
				.allSatisfy(answer -> assertThat(answer.status()).isEqualTo(503));
		}
	}

	private List<Answer> probeEverySecond(URI uri, Duration outage) throws InterruptedException {
		List<Answer> answers = new ArrayList<>();
		long start = System.nanoTime();
		while (System.nanoTime() - start < outage.toNanos()) {
			long asked = System.nanoTime();
			Answer answer = probe(uri);
			answers.add(new Answer(Duration.ofNanos(asked - start), answer.took(), answer.status()));
			Thread.sleep(Math.max(0, 1_000 - answer.took().toMillis()));
		}
		return answers;
	}

	/** One probe: its status, or 0 when none came within the probe's timeout. */
	private Answer probe(URI uri) throws InterruptedException {
		long start = System.nanoTime();
		int status;
		try {
			status = http.send(HttpRequest.newBuilder(uri).timeout(PROBE_TIMEOUT).GET().build(),
					HttpResponse.BodyHandlers.discarding()).statusCode();
		}
		catch (HttpTimeoutException timedOut) {
			status = 0;
		}
		catch (IOException refused) {
			status = -1;
		}
		return new Answer(Duration.ZERO, Duration.ofNanos(System.nanoTime() - start), status);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	/** A probe's answer: when it was asked (since the cut), how long it took, its HTTP status. */
	private record Answer(Duration since, Duration took, int status) {

		@Override
		public String toString() {
			return since.toMillis() + " ms: " + status + " in " + took.toMillis() + " ms";
		}
	}
}
