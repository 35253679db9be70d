package dev.jobqueue.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.store.PauseScope;
import dev.jobqueue.store.sqlite.support.SqliteChangeWatcher;
import dev.jobqueue.support.FaultInjectingStore;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.SqliteTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Commits made on other connections wake the queues that now have due jobs, and only those. */
class SqliteChangeWatcherTest {

	private static SqliteTestDatabase database;

	private final List<String> woken = new CopyOnWriteArrayList<>();

	private QueueFixture fixture;

	private SqliteChangeWatcher watcher;

	@BeforeAll
	static void openDatabase() {
		database = new SqliteTestDatabase();
	}

	@AfterAll
	static void closeDatabase() {
		database.close();
	}

	@BeforeEach
	void startWatching() {
		fixture = new QueueFixture(database);
		watcher = new SqliteChangeWatcher(database.dataSource(), List.of("default", "mail"), Duration.ofMillis(5));
		watcher.start(woken::add);
	}

	@AfterEach
	void stopWatching() {
		watcher.stop();
		fixture.close();
	}

	@Test
	void aJobCommittedOnAnotherConnectionWakesItsQueueAtOnce() throws InterruptedException {
		// Past the watcher's first look, so that only the change of data_version can wake it.
		Thread.sleep(100);
		fixture.queue().enqueue("greet", new Greeting("Ada", 1), EnqueueOptions.defaults().queue("mail"));

		await().atMost(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(woken).contains("mail"));
		assertThat(woken).doesNotContain("default");
	}

	@Test
	void aWatcherThatMeetsAnErrorWatchesOnAfterIt() throws SQLException {
		AtomicInteger failures = new AtomicInteger(1);
		DataSource failingOnce = new DelegatingDataSource(database.dataSource()) {
			@Override
			public Connection getConnection() throws SQLException {
				if (failures.getAndDecrement() > 0) {
					throw new FaultInjectingStore.InjectedError("getConnection");
				}
				return super.getConnection();
			}
		};
		List<String> wokenAfterError = new CopyOnWriteArrayList<>();
		SqliteChangeWatcher survivor = new SqliteChangeWatcher(failingOnce, List.of("mail"), Duration.ofMillis(5));
		survivor.start(wokenAfterError::add);
		try {
			fixture.queue().enqueue("greet", new Greeting("Ada", 1), EnqueueOptions.defaults().queue("mail"));

			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(wokenAfterError).contains("mail"));
		}
		finally {
			survivor.stop();
		}
	}

	@Test
	void aQueueIsReadOnlyOnceItsPollersWouldActOnAWake() throws InterruptedException {
		AtomicBoolean mailAsleep = new AtomicBoolean();
		List<String> wokenWhenAsleep = new CopyOnWriteArrayList<>();
		SqliteChangeWatcher watching = new SqliteChangeWatcher(database.dataSource(), List.of("mail"), Duration.ofMillis(5));
		watching.start(wokenWhenAsleep::add, queue -> mailAsleep.get());
		try {
			fixture.queue().enqueue("greet", new Greeting("Ada", 1), EnqueueOptions.defaults().queue("mail"));
			Thread.sleep(200);
			assertThat(wokenWhenAsleep).isEmpty();

			mailAsleep.set(true);

			await().atMost(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(wokenWhenAsleep).containsExactly("mail"));
		}
		finally {
			watching.stop();
		}
	}

	@Test
	void aCommitThatLeavesNoDueJobWakesNobody() throws InterruptedException {
		fixture.queue().enqueue("greet", new Greeting("Ada", 1), EnqueueOptions.defaults().delay(Duration.ofHours(1)));

		Thread.sleep(200);

		assertThat(woken).isEmpty();
	}

	@Test
	void aPausedQueueIsNotWokenByCommitsAndTheCommitOfItsResumeWakesIt() throws InterruptedException {
		fixture.store().pauses().pause(PauseScope.queue, "mail");
		fixture.queue().enqueue("greet", new Greeting("Ada", 1), EnqueueOptions.defaults().queue("mail"));
		fixture.queue().enqueue("greet", new Greeting("Bob", 1));

		await().atMost(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(woken).contains("default"));
		// Past the end of the watcher's pass over the queues, which found default's job.
		Thread.sleep(100);
		assertThat(woken).doesNotContain("mail");
		fixture.store().pauses().resume(PauseScope.queue, "mail");

		await().atMost(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(woken).contains("mail"));
	}
}
