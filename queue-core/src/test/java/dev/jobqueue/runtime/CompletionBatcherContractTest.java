package dev.jobqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.JobState;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * The batcher against a real store, on every database: a batch the database refuses for one row's sake
 * is split until the innocent rows are written and only the guilty row's failure is reported.
 */
public abstract class CompletionBatcherContractTest {

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

	@Test
	void aBatchRefusedForOneRowIsSplitSoThatEveryOtherRowIsWrittenAndOnlyThatRowFails() {
		for (int i = 0; i < 7; i++) {
			fixture.queue().enqueue("greet", new Greeting("n", i));
		}
		List<ClaimedJob> claimed = store.claims().claim("default", Map.of("greet", 1), 7, "w", Duration.ofMinutes(5),
				false);
		ClaimedJob guilty = claimed.get(4);
		// Not JSON at all: every database refuses it (invalid jsonb; SQLite's json_valid check).
		Map<Long, String> reports = new ConcurrentHashMap<>();
		CompletionBatcher batcher = new CompletionBatcher(store.outcomes(), new OutcomeWriter(Duration.ofSeconds(5)),
				new RoleLiveness(Clock.systemUTC(), () -> {
				}));
		claimed.forEach(job -> batcher.submit(
				new Completion(job.lease(), job == guilty ? "{not json" : "\"ok " + job.id() + "\""),
				report(job.id(), reports)));

		// Everything is handed over before the flusher starts, so it all goes into one batch.
		batcher.start();
		batcher.stop();

		claimed.stream().filter(job -> job != guilty).forEach(job -> {
			assertThat(reports.get(job.id())).isEqualTo("written");
			assertThat(fixture.job(job.id()).state()).isEqualTo(JobState.succeeded);
			assertThat(fixture.job(job.id()).result()).contains("ok " + job.id());
		});
		assertThat(reports.get(guilty.id())).startsWith("failed: ");
		assertThat(fixture.job(guilty.id()).state()).isEqualTo(JobState.running);
	}

	private static CompletionBatcher.Written report(long id, Map<Long, String> reports) {
		return new CompletionBatcher.Written() {
			@Override
			public void written(boolean held) {
				reports.put(id, held ? "written" : "lost");
			}

			@Override
			public void failed(RuntimeException ex) {
				reports.put(id, "failed: " + ex.getMessage());
			}
		};
	}
}
