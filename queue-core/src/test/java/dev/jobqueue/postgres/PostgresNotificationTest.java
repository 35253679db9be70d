package dev.jobqueue.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import ch.qos.logback.classic.Level;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.PauseScope;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.store.postgres.support.PostgresNotificationListener;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.FaultInjectingStore;
import dev.jobqueue.support.LogCapture;
import dev.jobqueue.support.PostgresTestDatabase;
import dev.jobqueue.support.QueueFixture;

import static dev.jobqueue.support.ReadyNotifications.listen;
import static dev.jobqueue.support.ReadyNotifications.receive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Wakeups across nodes: a runtime polling only every minute starts a job another node enqueued within
 * a fraction of that, which only the notification can explain.
 */
class PostgresNotificationTest {

	private static final RuntimeSettings SLOW_POLL = QueueFixture.SETTINGS.toBuilder()
			.pollInterval(Duration.ofMinutes(1))
			.build();

	/** Well under the poll interval, and generous for a 2-core machine busy with other builds. */
	private static final Duration QUICK = Duration.ofSeconds(5);

	private static final List<String> QUEUES = List.of(RuntimeSettings.DEFAULT_QUEUE);

	private static PostgresTestDatabase database;

	private static HikariDataSource otherNode;

	private QueueFixture fixture;

	private final Map<Long, Long> startedAt = new ConcurrentHashMap<>();

	@BeforeAll
	static void openDatabases() {
		database = new PostgresTestDatabase(8);
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(database.jdbcUrl());
		config.setMaximumPoolSize(2);
		otherNode = new HikariDataSource(config);
	}

	@AfterAll
	static void closeDatabases() {
		if (otherNode != null) {
			otherNode.close();
		}
		if (database != null) {
			database.close();
		}
	}

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database);
		fixture.handle("greet", Greeting.class, (greeting, context) -> {
			startedAt.put(context.jobId(), System.nanoTime());
			return null;
		});
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@Test
	void aJobEnqueuedThroughAnotherDataSourceStartsWellUnderThePollInterval() {
		startListeningRuntime();
		JobStore other = PostgresDialect.jobStore(otherNode);

		for (int i = 0; i < 5; i++) {
			long enqueued = System.nanoTime();
			long id = other.enqueues().enqueue(job()).id();
			await().atMost(QUICK).until(() -> startedAt.containsKey(id));
			assertThat(Duration.ofNanos(startedAt.get(id) - enqueued)).isLessThan(QUICK);
		}
	}

	@Test
	void theListenerReconnectsAfterItsBackendIsTerminated() {
		try (LogCapture log = new LogCapture()) {
			List<Integer> earlier = listenerPids();
			int first = startListeningRuntime();
			fixture.jdbc().sql("SELECT pg_terminate_backend(:pid)").param("pid", first).query(Boolean.class).single();
			List<Integer> known = new ArrayList<>(earlier);
			known.add(first);
			awaitListenerOtherThan(known);

			long enqueued = System.nanoTime();
			long id = PostgresDialect.jobStore(otherNode).enqueues().enqueue(job()).id();
			await().atMost(QUICK).until(() -> startedAt.containsKey(id));
			assertThat(Duration.ofNanos(startedAt.get(id) - enqueued)).isLessThan(QUICK);
			assertThat(log.messagesAtLeast(Level.WARN)).singleElement()
				.asString()
				.contains("lost its notification connection");
			assertThat(log.messagesAtLeast(Level.INFO)).anyMatch(m -> m.contains("listening for notifications again"));
		}
	}

	/**
	 * The job is enqueued without a notification, as one sent while the listener was away would be lost: only
	 * the wake-up that follows the reconnect can start it before the next poll, a minute away.
	 */
	@Test
	void afterAReconnectEveryQueueIsWokenForTheNotificationsMissedMeanwhile() {
		int first = startListeningRuntime();
		long id = PostgresDialect.jobStore(otherNode, false).enqueues().enqueue(job()).id();
		long enqueued = System.nanoTime();

		fixture.jdbc().sql("SELECT pg_terminate_backend(:pid)").param("pid", first).query(Boolean.class).single();

		await().atMost(QUICK).until(() -> startedAt.containsKey(id));
		assertThat(Duration.ofNanos(startedAt.get(id) - enqueued)).isLessThan(QUICK);
	}

	@Test
	void theListenerSurvivesAnErrorAndListensAfterIt() {
		List<Integer> earlier = listenerPids();
		JobRuntime runtime = fixture.startRuntime(SLOW_POLL, new CountingListener());
		runtime.addWakeupSource(new PostgresNotificationListener(failingOnce(database.dataSource()), QUEUES));
		awaitListenerOtherThan(earlier);

		long enqueued = System.nanoTime();
		long id = PostgresDialect.jobStore(otherNode).enqueues().enqueue(job()).id();

		await().atMost(QUICK).until(() -> startedAt.containsKey(id));
		assertThat(Duration.ofNanos(startedAt.get(id) - enqueued)).isLessThan(QUICK);
	}

	/** Its first connection throws an {@code Error}; the later ones are the database's own. */
	private static DataSource failingOnce(DataSource dataSource) {
		AtomicInteger failures = new AtomicInteger(1);
		return new DelegatingDataSource(dataSource) {
			@Override
			public Connection getConnection() throws SQLException {
				if (failures.getAndDecrement() > 0) {
					throw new FaultInjectingStore.InjectedError("getConnection");
				}
				return super.getConnection();
			}
		};
	}

	@Test
	void aTransactionEnqueueingManyJobsOfAQueueSendsOneNotification() throws SQLException {
		try (Connection listening = DriverManager.getConnection(database.jdbcUrl())) {
			listen(listening);
			fixture.transactions().executeWithoutResult(status -> {
				IntStream.range(0, 20).forEach(i -> database.store().enqueues().enqueue(job()));
				database.store().enqueues().enqueueAll(List.of(job(), job(), job()));
			});

			assertThat(receive(listening)).containsExactly("default");
		}
	}

	/**
	 * PostgreSQL commits notifying transactions one at a time, so enqueues must not each notify: from many
	 * threads at once they are announced at most once per interval, after their commits.
	 */
	@Test
	void concurrentEnqueuesAreAnnouncedAtMostOncePerInterval() throws Exception {
		try (Connection listening = DriverManager.getConnection(database.jdbcUrl())) {
			listen(listening);
			long start = System.nanoTime();
			List<Thread> producers = IntStream.range(0, 8)
				.mapToObj(t -> new Thread(() -> IntStream.range(0, 50).forEach(i -> database.store().enqueues().enqueue(job()))))
				.toList();
			producers.forEach(Thread::start);
			for (Thread producer : producers) {
				producer.join();
			}
			Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

			List<String> received = receive(listening);
			long intervals = elapsed.toNanos() / PostgresDialect.NOTIFY_INTERVAL.toNanos();
			assertThat(received).as("notifications for 400 enqueues in %s", elapsed)
				.isNotEmpty()
				.hasSizeLessThanOrEqualTo((int) intervals + 2)
				.containsOnly("default");
		}
	}

	@Test
	void aTransactionIsAnnouncedWhenItCommitsAndARolledBackOneNotAtAll() throws SQLException {
		try (Connection listening = DriverManager.getConnection(database.jdbcUrl())) {
			listen(listening);
			fixture.transactions().executeWithoutResult(status -> {
				database.store().enqueues().enqueue(job());
				status.setRollbackOnly();
			});
			assertThat(receive(listening)).isEmpty();

			Connection waiting = listening;
			List<String> beforeCommit = fixture.transactions().execute(status -> {
				database.store().enqueues().enqueue(job());
				try {
					return receive(waiting);
				}
				catch (SQLException ex) {
					throw new IllegalStateException(ex);
				}
			});
			assertThat(beforeCommit).isEmpty();
			assertThat(receive(listening)).containsExactly("default");
		}
	}

	@Test
	void jobsNotDueNowAndStoresThatDoNotNotifySendNothing() throws SQLException {
		try (Connection listening = DriverManager.getConnection(database.jdbcUrl())) {
			listen(listening);
			database.store().enqueues().enqueue(new NewJob("default", "greet", "{}", 1, 5, null, Duration.ofHours(1), 3, null));
			PostgresDialect.jobStore(otherNode, false).enqueues().enqueue(job());
			PostgresDialect.jobStore(otherNode, false).enqueues().enqueueAll(List.of(job()));

			assertThat(receive(listening)).isEmpty();
		}
	}

	@Test
	void aResumedQueueNotifiesItsListenersOnceAndPausesAndResumedKindsSendNothing() throws SQLException {
		try (Connection listening = DriverManager.getConnection(database.jdbcUrl())) {
			listen(listening);
			database.store().pauses().pause(PauseScope.queue, "default");
			database.store().pauses().pause(PauseScope.kind, "greet");
			database.store().pauses().resume(PauseScope.kind, "greet");
			assertThat(receive(listening)).isEmpty();

			assertThat(database.store().pauses().resume(PauseScope.queue, "default")).isTrue();
			assertThat(database.store().pauses().resume(PauseScope.queue, "default")).isFalse();

			assertThat(receive(listening)).containsExactly("default");
		}
	}

	/**
	 * Starts a runtime with a listener and returns the backend pid of its listening connection: the new one,
	 * for backends of earlier tests and processes may still be listed for a moment.
	 */
	private int startListeningRuntime() {
		List<Integer> earlier = listenerPids();
		JobRuntime runtime = fixture.startRuntime(SLOW_POLL, new CountingListener());
		runtime.addWakeupSource(new PostgresNotificationListener(database.dataSource(), QUEUES));
		return awaitListenerOtherThan(earlier);
	}

	private int awaitListenerOtherThan(List<Integer> known) {
		AtomicInteger found = new AtomicInteger();
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			Optional<Integer> pid = listenerPids().stream().filter(p -> !known.contains(p)).findFirst();
			pid.ifPresent(found::set);
			return pid.isPresent();
		});
		return found.get();
	}

	private static NewJob job() {
		return new NewJob(RuntimeSettings.DEFAULT_QUEUE, "greet", "{\"name\":\"n\",\"count\":1}", 1, 5, null,
				Duration.ZERO, 3, null);
	}

	private List<Integer> listenerPids() {
		return fixture.jdbc()
			.sql("SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN jobqueue_ready' AND pid <> pg_backend_pid()")
			.query(Integer.class)
			.list();
	}
}
