package dev.jobqueue.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.JobState;
import dev.jobqueue.support.PostgresQueueFixture;
import dev.jobqueue.support.QueueFixture;

/**
 * A promotion takes one advisory lock per key until its transaction ends, and PostgreSQL's lock table holds
 * {@code max_locks_per_transaction} (64 by default) times the connections: a promotion of many keys at once (a burst
 * of enqueues of distinct keys, a sweep's stretch) must not ask for them all in one transaction.
 */
class PostgresPromotionLocksTest {

	private static final int KEYS = 20_000;

	@RegisterExtension
	static final PostgresQueueFixture postgres = new PostgresQueueFixture(10);

	@Test
	void twentyThousandKeysPromotedAtOnceEachGetTheirSlot() {
		QueueFixture fixture = postgres.fixture();
		List<String> keys = IntStream.range(0, KEYS).mapToObj(i -> "many-" + i).toList();
		for (int first = 0; first < KEYS; first += 1000) {
			fixture.queue().enqueueAll(keys.subList(first, first + 1000).stream()
				.map(key -> new NewJobRequest("greet", key, EnqueueOptions.defaults().queue("elsewhere").concurrencyKey(key)))
				.toList());
		}

		fixture.store().promotions().promote(keys);

		assertThat(fixture.counts().get("elsewhere")).containsEntry(JobState.ready, (long) KEYS)
			.doesNotContainKey(JobState.blocked);
	}
}
