package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * A job's error history, on every database: every failure and every reap adds an entry (attempt, the
 * database's time, the worker, the message), the newest last, bounded in entries and in length, while
 * {@code last_error} keeps the latest text in full.
 */
public abstract class ErrorHistoryContractTest {

	private static final Duration LEASE = Duration.ofMinutes(1);

	private QueueFixture fixture;

	private JobStore store;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		store = fixture.store();
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	private long enqueue(int maxAttempts) {
		return fixture.queue().enqueue("greet", new Greeting("Ada", 1),
				EnqueueOptions.defaults().maxAttempts(maxAttempts));
	}

	@Test
	void aTimeoutThenAReapReadAsTwoEntriesInOrder() throws InterruptedException {
		long id = enqueue(3);
		ClaimedJob first = store.claims().claim("default", Map.of("greet", 1), 1, "node-a", LEASE, false).get(0);
		assertThat(store.outcomes().retryLater(first.lease(), Duration.ZERO, "timeout")).isTrue();
		store.claims().claim("default", Map.of("greet", 1), 1, "node-b", Duration.ofMillis(1), false);
		Thread.sleep(20);
		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);

		Job job = fixture.job(id);

		assertThat(job.errors()).hasSize(2);
		Job.AttemptError timeout = job.errors().get(0);
		Job.AttemptError reaped = job.errors().get(1);
		assertThat(timeout.attempt()).isEqualTo(1);
		assertThat(timeout.worker()).isEqualTo("node-a");
		assertThat(timeout.message()).isEqualTo("timeout");
		assertThat(reaped.attempt()).isEqualTo(2);
		assertThat(reaped.worker()).isEqualTo("node-b");
		assertThat(reaped.message()).startsWith("lease expired on node-b at ");
		assertThat(reaped.at()).isAfterOrEqualTo(timeout.at());
		assertThat(job.lastError()).isEqualTo(reaped.message());
	}

	@Test
	void aJobThatSucceedsAfterAFailureHasNoLastErrorButKeepsTheFailureInItsHistory() {
		long once = enqueue(3);
		long batched = enqueue(3);
		for (ClaimedJob failed : store.claims().claim("default", Map.of("greet", 1), 2, "node-a", LEASE, false)) {
			assertThat(store.outcomes().retryLater(failed.lease(), Duration.ZERO, "timeout")).isTrue();
		}
		List<ClaimedJob> retried = store.claims().claim("default", Map.of("greet", 1), 2, "node-b", LEASE, false);
		ClaimedJob alone = retried.stream().filter(job -> job.id() == once).findFirst().orElseThrow();
		ClaimedJob inBatch = retried.stream().filter(job -> job.id() == batched).findFirst().orElseThrow();

		assertThat(store.outcomes().complete(alone.lease(), "\"done\"")).isTrue();
		assertThat(store.outcomes().completeAll(List.of(new Completion(inBatch.lease(), "\"done\"")))).isEmpty();

		for (long id : List.of(once, batched)) {
			Job job = fixture.job(id);
			assertThat(job.lastError()).isNull();
			assertThat(job.errors()).singleElement().satisfies(entry -> assertThat(entry.message()).isEqualTo("timeout"));
		}
	}

	@Test
	void aFailureThatKillsTheJobIsTheLastEntry() {
		long id = enqueue(1);
		ClaimedJob claimed = store.claims().claim("default", Map.of("greet", 1), 1, "node-a", LEASE, false).get(0);

		assertThat(store.outcomes().fail(claimed.lease(), "card declined")).isTrue();

		assertThat(fixture.job(id).errors()).singleElement().satisfies(entry -> {
			assertThat(entry.attempt()).isEqualTo(1);
			assertThat(entry.worker()).isEqualTo("node-a");
			assertThat(entry.message()).isEqualTo("card declined");
			assertThat(entry.at()).isAfterOrEqualTo(fixture.job(id).startedAt());
		});
	}

	@Test
	void theHistoryKeepsTheLatestEntriesEachCutWhileTheLastErrorKeepsTheFullText() {
		long id = enqueue(50);
		String longError = "x".repeat(5_000);
		int failures = Job.AttemptError.MAX_ENTRIES + 3;
		for (int attempt = 1; attempt <= failures; attempt++) {
			ClaimedJob claimed = store.claims().claim("default", Map.of("greet", 1), 1, "node-a", LEASE, false).get(0);
			String error = attempt == failures ? longError : "failure " + attempt;
			assertThat(store.outcomes().retryLater(claimed.lease(), Duration.ZERO, error)).isTrue();
		}

		Job job = fixture.job(id);

		List<Integer> attempts = job.errors().stream().map(Job.AttemptError::attempt).toList();
		assertThat(attempts).hasSize(Job.AttemptError.MAX_ENTRIES).isSorted().endsWith(failures);
		assertThat(job.errors().get(0).message()).isEqualTo("failure 4");
		assertThat(job.errors().get(Job.AttemptError.MAX_ENTRIES - 1).message())
			.hasSizeLessThanOrEqualTo(Job.AttemptError.MAX_MESSAGE_LENGTH)
			.startsWith("xxx")
			.endsWith("characters cut)");
		assertThat(job.lastError()).isEqualTo(longError);
	}

	@Test
	void aJobThatNeverFailedHasNoHistory() {
		long id = enqueue(3);
		ClaimedJob claimed = store.claims().claim("default", Map.of("greet", 1), 1, "node-a", LEASE, false).get(0);
		assertThat(store.outcomes().complete(claimed.lease(), null)).isTrue();

		assertThat(fixture.job(id).errors()).isEmpty();
	}
}
