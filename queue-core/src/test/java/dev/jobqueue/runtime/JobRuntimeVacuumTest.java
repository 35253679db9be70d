package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import ch.qos.logback.classic.Level;
import dev.jobqueue.JobListener;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.support.LogCapture;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.StoreRoles;
import dev.jobqueue.support.SqliteTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** How the runtime schedules its vacuumer: on by default, every interval, again after a failure, off at zero. */
class JobRuntimeVacuumTest {

	private final SqliteTestDatabase database = new SqliteTestDatabase();

	private final List<Long> vacuumThresholds = new CopyOnWriteArrayList<>();

	private final AtomicInteger reaperRuns = new AtomicInteger();

	private JobRuntime runtime;

	@AfterEach
	void stop() {
		if (runtime != null) {
			runtime.stop();
		}
		database.close();
	}

	@Test
	void theVacuumerAsksTheStoreEveryIntervalWithItsThreshold() {
		start(QueueFixture.SETTINGS.toBuilder().vacuumInterval(Duration.ofMillis(50)).build(), false);

		await().atMost(Duration.ofSeconds(10)).until(() -> vacuumThresholds.size() >= 3);
		assertThat(vacuumThresholds).containsOnly(Vacuumer.DEAD_ROW_THRESHOLD);
	}

	@Test
	void aVacuumThatFailsIsLoggedAndRunsAgainAtTheNextInterval() {
		try (LogCapture logs = new LogCapture()) {
			start(QueueFixture.SETTINGS.toBuilder().vacuumInterval(Duration.ofMillis(50)).build(), true);

			await().atMost(Duration.ofSeconds(10)).until(() -> vacuumThresholds.size() >= 2);
			assertThat(logs.messagesAtLeast(Level.WARN))
				.anyMatch(message -> message.startsWith("jobqueue vacuum failed; it runs again in PT0.05S")
						&& message.contains("no connection"));
		}
	}

	@Test
	void aVacuumIntervalOfZeroNeverAsksTheStore() {
		start(QueueFixture.SETTINGS.toBuilder()
				.vacuumInterval(Duration.ZERO)
				.reaperInterval(Duration.ofMillis(20))
				.build(), false);

		// The reaper's runs show that the maintenance threads are working meanwhile.
		await().atMost(Duration.ofSeconds(10)).until(() -> reaperRuns.get() >= 10);
		assertThat(vacuumThresholds).isEmpty();
	}

	private void start(RuntimeSettings settings, boolean vacuumFails) {
		JobStore store = watched(database.store(), vacuumFails);
		runtime = new JobRuntime(store, new HandlerRegistry(), QueueFixture.JSON, settings, JobListener.NONE,
				new TransactionTemplate(new JdbcTransactionManager(database.dataSource())));
		runtime.start();
	}

	/** The store, recording the vacuumer's and the reaper's calls; a vacuum fails when told to. */
	private JobStore watched(JobStore store, boolean vacuumFails) {
		return StoreRoles.wrapped(store, (role, method, args) -> {
			if (method.getName().equals("vacuumIfBloated")) {
				vacuumThresholds.add((Long) args[0]);
				if (vacuumFails) {
					throw new IllegalStateException("no connection");
				}
			}
			if (method.getName().equals("reapExpired")) {
				reaperRuns.incrementAndGet();
			}
			return StoreRoles.invoke(role, method, args);
		});
	}
}
