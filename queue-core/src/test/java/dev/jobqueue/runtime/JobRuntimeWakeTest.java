package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.JobListener;
import dev.jobqueue.store.WakeupSource;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.SqliteTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/** Wakes come from listeners' and enqueues' threads at any time, also while the runtime starts and stops. */
class JobRuntimeWakeTest {

	private final SqliteTestDatabase database = new SqliteTestDatabase();

	@AfterEach
	void close() {
		database.close();
	}

	@Test
	void wakesFromManyThreadsWhileTheRuntimeStartsAndStopsNeverFail() throws InterruptedException {
		JobRuntime runtime = runtime(Map.of("default", 1, "mail", 1, "reports", 1, "exports", 1));
		Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
		AtomicBoolean cycling = new AtomicBoolean(true);
		AtomicInteger wakes = new AtomicInteger();
		ExecutorService wakers = Executors.newFixedThreadPool(8);
		List<String> names = List.of("default", "mail", "reports", "exports", "unknown");
		for (int i = 0; i < 8; i++) {
			wakers.execute(() -> {
				while (cycling.get()) {
					try {
						names.forEach(runtime::wake);
						wakes.incrementAndGet();
					}
					catch (Throwable ex) {
						failures.add(ex);
					}
				}
			});
		}

		for (int cycle = 0; cycle < 20; cycle++) {
			runtime.start();
			runtime.stop();
		}
		cycling.set(false);
		wakers.shutdown();

		assertThat(wakers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		assertThat(failures).isEmpty();
		assertThat(wakes.get()).isPositive();
	}

	@Test
	void aWakeupSourceAddedWhileTheRuntimeRunsIsToldWhichQueuesWantWakesAsOneAddedBefore() {
		JobRuntime runtime = runtime(Map.of("default", 1));
		RecordingSource before = new RecordingSource();
		RecordingSource after = new RecordingSource();
		runtime.addWakeupSource(before);
		runtime.start();
		try {
			runtime.addWakeupSource(after);

			for (RecordingSource source : List.of(before, after)) {
				assertThat(source.wanted).as("the queues a wake is wanted for").isNotNull();
				assertThat(source.wanted.test("unknown")).as("a queue the runtime does not serve").isFalse();
			}
		}
		finally {
			runtime.stop();
		}
	}

	private JobRuntime runtime(Map<String, Integer> queues) {
		return new JobRuntime(database.store(), new HandlerRegistry(), QueueFixture.JSON,
				QueueFixture.SETTINGS.toBuilder().queues(queues).shutdownTimeout(Duration.ZERO).build(),
				JobListener.NONE, new TransactionTemplate(new JdbcTransactionManager(database.dataSource())));
	}

	/** Keeps what the runtime told it at its start. */
	private static final class RecordingSource implements WakeupSource {

		private volatile Predicate<String> wanted;

		@Override
		public void start(Consumer<String> wake) {
			start(wake, queue -> true);
		}

		@Override
		public void start(Consumer<String> wake, Predicate<String> wanted) {
			this.wanted = wanted;
		}

		@Override
		public void stop() {
		}
	}
}
