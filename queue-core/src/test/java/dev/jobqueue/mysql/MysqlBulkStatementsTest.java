package dev.jobqueue.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.support.MysqlTestDatabase;

/**
 * With {@code useBulkStmts=true}, MariaDB Connector/J answers a JDBC batch with no count per statement. The batched
 * writes must still tell held leases from lost ones: before they read it from their own locking read, every
 * heartbeat found all its leases lost and every batch of completions reported all of them lost.
 */
class MysqlBulkStatementsTest {

	private static final Map<String, Integer> SERVED = Map.of("greet", 1);

	private static MysqlTestDatabase database;

	@BeforeAll
	static void openDatabase() {
		Assumptions.assumeTrue(MysqlTestDatabase.url().startsWith("jdbc:mariadb:"), "a MariaDB Connector/J option");
		database = new MysqlTestDatabase(MysqlTestDatabase.url() + "&useBulkStmts=true", 4, null);
	}

	@AfterAll
	static void closeDatabase() {
		if (database != null) {
			database.close();
		}
	}

	@Test
	void heartbeatsAndBatchedCompletionsTellHeldLeasesFromLostOnes() {
		database.reset();
		database.store().enqueues().enqueueAll(IntStream.range(0, 3).mapToObj(i -> job()).toList());
		List<ClaimedJob> claimed = database.store().claims().claim("default", SERVED, 3, "w", Duration.ofMinutes(1),
				false);
		List<Lease> leases = claimed.stream().map(ClaimedJob::lease).toList();
		Lease cancelled = leases.get(0);
		database.store().writes().cancel(cancelled.jobId());

		assertThat(database.store().claims().heartbeat("w", leases, Duration.ofMinutes(1)))
			.containsExactlyInAnyOrderElementsOf(leases.subList(1, 3));
		assertThat(database.store().outcomes().completeAll(leases.stream().map(lease -> new Completion(lease, "1")).toList()))
			.containsExactly(cancelled);
		assertThat(database.store().reads().find(leases.get(1).jobId()).orElseThrow().state()).isEqualTo(JobState.succeeded);
	}

	@Test
	void enqueueAllReturnsTheIdOfEachJobInTheOrderGiven() {
		database.reset();
		List<NewJob> jobs = IntStream.range(0, 5)
			.mapToObj(i -> new NewJob("default", "greet", "{\"count\":" + i + "}", 1, 5, null, Duration.ZERO, 5, null,
					null))
			.toList();

		List<Long> ids = database.store().enqueues().enqueueAll(jobs).stream().map(EnqueueResult::id).toList();

		assertThat(ids).hasSize(5).isSorted().doesNotHaveDuplicates();
		for (int i = 0; i < 5; i++) {
			assertThat(database.store().reads().find(ids.get(i)).orElseThrow().payload()).isEqualTo("{\"count\":" + i + "}");
		}
	}

	private static NewJob job() {
		return new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 5, null, null);
	}
}
