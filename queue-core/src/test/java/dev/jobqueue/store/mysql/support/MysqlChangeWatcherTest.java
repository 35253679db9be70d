package dev.jobqueue.store.mysql.support;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.support.MysqlTestDatabase;
import dev.jobqueue.support.QueueFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The watcher reads whether a queue has due jobs only for queues whose pollers would act on a wake: a queue whose
 * poller is claiming, or whose threads are all busy, is read once its poller is asleep again.
 */
class MysqlChangeWatcherTest {

	private static MysqlTestDatabase database;

	private final List<String> woken = new CopyOnWriteArrayList<>();

	private final AtomicBoolean mailAsleep = new AtomicBoolean();

	private QueueFixture fixture;

	private MysqlChangeWatcher watcher;

	@BeforeAll
	static void openDatabase() {
		database = new MysqlTestDatabase();
	}

	@AfterAll
	static void closeDatabase() {
		if (database != null) {
			database.close();
		}
	}

	@BeforeEach
	void startWatching() {
		fixture = new QueueFixture(database);
		watcher = new MysqlChangeWatcher(database.dataSource(), List.of("default", "mail"), Duration.ofMillis(20));
		watcher.start(woken::add, queue -> queue.equals("default") || mailAsleep.get());
	}

	@AfterEach
	void stopWatching() {
		watcher.stop();
		fixture.close();
	}

	@Test
	void aQueueWhosePollerIsBusyIsReadOnceItsPollerIsAsleep() throws InterruptedException {
		fixture.queue().enqueue("greet", new Greeting("Ada", 1), EnqueueOptions.defaults().queue("mail"));
		fixture.queue().enqueue("greet", new Greeting("Bob", 1));

		await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(woken).contains("default"));
		Thread.sleep(200);
		assertThat(woken).doesNotContain("mail");

		mailAsleep.set(true);

		await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(woken).contains("mail"));
	}
}
